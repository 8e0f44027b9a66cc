import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database, StoredStatus } from './database.js';
import type { DialectAdapter } from './dialect.js';
import type { ListCursor } from '../model/list-cursor.js';
import type { ScenarioRecord } from './scenarios-repository.js';
import { chunks } from './chunks.js';

export interface ScenarioFilter {
  readonly status?: StoredStatus;
  readonly algo?: string;
  readonly dataset?: string;
  /** A substring of the tag, case-insensitive. */
  readonly q?: string;
  /** Only the scenarios of this experiment. */
  readonly experiment?: string;
  /** Only the branches made from this scenario (its children, not their descendants). */
  readonly parent?: string;
}

export type ScenarioSort =
  | { readonly by: 'created_at' | 'tag'; readonly descending: boolean }
  | { readonly by: 'kpi'; readonly kpi: string; readonly descending: boolean };

export interface ScenarioPageQuery {
  readonly sessionId: string;
  readonly filter: ScenarioFilter;
  readonly sort: ScenarioSort;
  readonly limit: number;
  readonly after?: ListCursor;
  /** Skip reading the result column (it can be large) when the client did not ask for it. */
  readonly withResult: boolean;
}

/** A listed row with what the next cursor is made of. */
export interface ListedScenario {
  readonly record: ScenarioRecord;
  readonly seq: number;
  readonly sortValue: string | number | null;
}

type ScenarioQuery = SelectQueryBuilder<Database & { s: Database['scenarios']; k: Database['scenario_kpis'] }, 's' | 'k', object>;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function columns(withResult: boolean) {
  return [
    's.seq as seq',
    's.id as id',
    's.session_id as sessionId',
    's.tag as tag',
    's.dataset_key as datasetKey',
    's.algo_name as algoName',
    's.algo_params as algoParamsJson',
    's.data_params as dataParamsJson',
    's.status as status',
    's.progress as progress',
    withResult ? 's.result as resultJson' : sql<string | null>`null`.as('resultJson'),
    's.kpi_values as kpiValuesJson',
    's.error as error',
    's.created_at as createdAt',
    's.started_at as startedAt',
    's.finished_at as finishedAt',
    's.parent_id as parentId',
    's.dataset_version as datasetVersion',
    's.result_dataset_version as resultDatasetVersion',
    's.warm_start_from as warmStartFrom',
  ] as const;
}

/**
 * One page of a session's scenarios, filtered and sorted, after `after` (keyset pagination: each page
 * continues from the last row's sort key, so rows inserted meanwhile are neither skipped nor repeated
 * among those that already existed). Answers up to `limit + 1` rows, the extra one telling there is more.
 */
export async function listScenarioPage(db: Kysely<Database>, dialect: DialectAdapter, query: ScenarioPageQuery): Promise<ListedScenario[]> {
  const want = query.limit + 1;
  if (query.sort.by !== 'kpi') return plainPage(db, dialect, query, query.sort, want);
  const sort = query.sort;
  // KPI sort: the scenarios with a value, by value, then those without one (not COMPLETE), by creation.
  const rows: ListedScenario[] = [];
  if (query.after === undefined || query.after.value !== null) rows.push(...(await valuedPage(db, dialect, query, sort, want)));
  if (rows.length < want) {
    const from = query.after?.value === null ? query.after.seq : undefined;
    rows.push(...(await unvaluedPage(db, dialect, query, sort.kpi, want - rows.length, from)));
  }
  return rows;
}

function filtered<Q extends ScenarioQuery>(q: Q, dialect: DialectAdapter, query: ScenarioPageQuery): Q {
  const { filter } = query;
  let out = q.where('s.session_id', '=', query.sessionId) as Q;
  if (filter.status !== undefined) out = out.where('s.status', '=', filter.status) as Q;
  if (filter.algo !== undefined) out = out.where('s.algo_name', '=', filter.algo) as Q;
  if (filter.dataset !== undefined) out = out.where('s.dataset_key', '=', filter.dataset) as Q;
  if (filter.experiment !== undefined) out = out.where('s.experiment_id', '=', filter.experiment) as Q;
  if (filter.parent !== undefined) out = out.where('s.parent_id', '=', filter.parent) as Q;
  if (filter.q !== undefined && filter.q !== '') {
    const pattern = likePattern(filter.q);
    out = out.where(dialect.matchesIgnoringCase('s.tag', pattern)) as Q;
  }
  return out;
}

async function plainPage(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  query: ScenarioPageQuery,
  sort: { by: 'created_at' | 'tag'; descending: boolean },
  want: number,
): Promise<ListedScenario[]> {
  const dir = sort.descending ? 'desc' : 'asc';
  const cmp = sort.descending ? '<' : '>';
  let q = filtered(db.selectFrom('scenarios as s').select(columns(query.withResult)) as unknown as ScenarioQuery, dialect, query);
  const after = query.after;
  if (sort.by === 'created_at') {
    if (after) q = q.where('s.seq', cmp, after.seq);
    q = q.orderBy('s.seq', dir);
  } else {
    // Tags are unique within a session: the tag alone is the key.
    if (after) q = q.where('s.tag', cmp, String(after.value));
    q = q.orderBy('s.tag', dir);
  }
  const rows = (await q.limit(want).execute()) as unknown as (ScenarioRecord & { seq: number })[];
  return rows.map(({ seq, ...record }) => ({ record, seq, sortValue: sort.by === 'tag' ? record.tag : null }));
}

async function valuedPage(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  query: ScenarioPageQuery,
  sort: { kpi: string; descending: boolean },
  want: number,
): Promise<ListedScenario[]> {
  const dir = sort.descending ? 'desc' : 'asc';
  const cmp = sort.descending ? '<' : '>';
  let q = db
    .selectFrom('scenario_kpis as k')
    .innerJoin('scenarios as s', 's.seq', 'k.scenario_seq')
    .select([...columns(query.withResult), 'k.value as sortValue'])
    .where('k.session_id', '=', query.sessionId)
    .where('k.name', '=', sort.kpi)
    .where('s.status', '=', 'COMPLETE') as unknown as ScenarioQuery;
  q = filtered(q, dialect, query);
  const after = query.after;
  if (after && typeof after.value === 'number') {
    const value = after.value;
    q = q.where((eb) =>
      eb.or([eb('k.value', cmp, value), eb.and([eb('k.value', '=', value), eb('k.scenario_seq', cmp, after.seq)])]),
    );
  }
  const rows = (await q.orderBy('k.value', dir).orderBy('k.scenario_seq', dir).limit(want).execute()) as unknown as (ScenarioRecord & {
    seq: number;
    sortValue: number;
  })[];
  return rows.map(({ seq, sortValue, ...record }) => ({ record, seq, sortValue: Number(sortValue) }));
}

async function unvaluedPage(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  query: ScenarioPageQuery,
  kpi: string,
  want: number,
  afterSeq: number | undefined,
): Promise<ListedScenario[]> {
  let q = filtered(db.selectFrom('scenarios as s').select(columns(query.withResult)) as unknown as ScenarioQuery, dialect, query);
  q = q.where((eb) =>
    eb.or([
      eb('s.status', '<>', 'COMPLETE'),
      eb.not(eb.exists(eb.selectFrom('scenario_kpis as k').select('k.name').whereRef('k.scenario_seq', '=', 's.seq').where('k.name', '=', kpi))),
    ]),
  );
  if (afterSeq !== undefined) q = q.where('s.seq', '>', afterSeq);
  const rows = (await q.orderBy('s.seq', 'asc').limit(want).execute()) as unknown as (ScenarioRecord & { seq: number })[];
  return rows.map(({ seq, ...record }) => ({ record, seq, sortValue: null }));
}

/** Every scenario of the session the filter matches, as id and creation sequence, in creation order (batch actions). */
export async function matchingScenarios(db: Kysely<Database>, dialect: DialectAdapter, sessionId: string, filter: ScenarioFilter): Promise<{ id: string; seq: number }[]> {
  const query = { sessionId, filter, sort: { by: 'created_at', descending: false }, limit: 0, withResult: false } as const;
  const q = filtered(db.selectFrom('scenarios as s').select(['s.id as id', 's.seq as seq']) as unknown as ScenarioQuery, dialect, query);
  return (await q.orderBy('s.seq').execute()) as unknown as { id: string; seq: number }[];
}

/** The session's scenarios among `ids`, in creation order (unknown ids are simply absent). */
export async function scenariosByIds(db: Kysely<Database>, sessionId: string, ids: readonly string[]): Promise<{ id: string; seq: number }[]> {
  const found: { id: string; seq: number }[] = [];
  for (const chunk of chunks(ids)) {
    found.push(...(await db.selectFrom('scenarios').select(['id', 'seq']).where('session_id', '=', sessionId).where('id', 'in', chunk).execute()));
  }
  return found.sort((a, b) => a.seq - b.seq);
}
