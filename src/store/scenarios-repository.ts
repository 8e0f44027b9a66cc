import { sql, type Kysely } from 'kysely';
import type { Database, StoredStatus } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { ENDED, NO_RUN } from './run-columns.js';
import { prepared } from './prepared-query.js';
import { copyLogLines, readLogLines } from './run-log-lines.js';
import { copyKpiValues } from './scenario-kpis.js';
import type { StaleMark } from '../model/stale-mark.js';
import { ExplanationsRepository } from './explanations-repository.js';

/** A scenario as stored; JSON columns stay text so callers parse only what they serve. */
export interface ScenarioRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly tag: string;
  readonly datasetKey: string;
  readonly algoName: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
  readonly status: StoredStatus;
  readonly progress: number;
  readonly resultJson: string | null;
  readonly kpiValuesJson: string | null;
  readonly error: string | null;
  /** A `RunErrorCode` when FAILED. */
  readonly errorCode: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** The latest `ctx.report` as wire JSON (`ReportView`), or null. */
  readonly reportJson: string | null;
  /** The seed of the latest run's `ctx.random`; null before a run started. */
  readonly seed: number | null;
  /** The scenario it was branched from; null for a root. */
  readonly parentId: string | null;
  /** The plan's scenario its latest warm-started run received (migration 0029); absent where a query does not read it. */
  readonly warmStartFrom?: string | null;
  /** Its churn against the published plan, when the reader attached it (`PlanChurns.attach`); absent: null on the wire. */
  readonly planChurn?: { readonly rows_changed: number; readonly share: number } | null;
  /** What it follows (migration 0030): the scenario it was rebased from, the plan's scenario it re-plans; absent where a query does not read them. */
  readonly rebasedFrom?: string | null;
  readonly replans?: string | null;
  /** Its dataset's version when created (or reset), and the one its latest run read (migration 0027); absent where a query does not read them. */
  readonly datasetVersion?: number | null;
  readonly resultDatasetVersion?: number | null;
  /** Its stale mark, when the reader attached it (`StaleMarks.attach`); absent: null on the wire. */
  readonly stale?: StaleMark | null;
}

export type NewScenario = Pick<
  ScenarioRecord,
  'id' | 'sessionId' | 'tag' | 'datasetKey' | 'algoName' | 'algoParamsJson' | 'dataParamsJson' | 'createdAt'
> & {
  /** The scenario it branches; absent or null for a root. */
  readonly parentId?: string | null;
};

/** A scenario's latest run as views see it, without its result (its parent: a comparison's default baseline). */
export type RunSummary = Pick<ScenarioRecord, 'id' | 'tag' | 'status' | 'algoName' | 'datasetKey' | 'finishedAt' | 'parentId'>;

/** The few columns the status route needs: polling never reads a result. */
export interface ScenarioStatusRecord {
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
  readonly progress: number;
  readonly reportJson: string | null;
  /** Why the run failed (a `RunErrorCode`), when FAILED. */
  readonly errorCode: string | null;
}

/** What `GET .../logs` serves of a scenario: its latest run's lines and, when FAILED, what it threw. */
export interface ScenarioLogsRecord {
  readonly status: StoredStatus;
  /** Lines the latest run wrote; only the last 1,000 are kept. */
  readonly logCount: number;
  readonly lines: readonly { line: number; at: string; level: string; message: string; fields: string | null }[];
  readonly error: string | null;
  readonly errorClass: string | null;
  /** JSON array of stack frames. */
  readonly errorStack: string | null;
}

export interface ScenarioRef {
  readonly sessionId: string;
  readonly id: string;
}

/** What a scenario asks of a run: whose it is, its data and algorithm, and their parameters. */
export const runInputColumns = [
  'id',
  'session_id as sessionId',
  'tag',
  'dataset_key as datasetKey',
  'algo_name as algoName',
  'algo_params as algoParamsJson',
  'data_params as dataParamsJson',
] as const;

export const recordColumns = [
  ...runInputColumns,
  'status',
  'progress',
  'result as resultJson',
  'kpi_values as kpiValuesJson',
  'error',
  'error_code as errorCode',
  'created_at as createdAt',
  'started_at as startedAt',
  'finished_at as finishedAt',
  'report as reportJson',
  'seed',
  'parent_id as parentId',
  'warm_start_from as warmStartFrom',
  'rebased_from as rebasedFrom',
  'replans',
  'dataset_version as datasetVersion',
  'result_dataset_version as resultDatasetVersion',
] as const;

// The statements of the hot paths (create, run, status), compiled once (see prepared-query.ts).

const statusQuery = prepared((db, ref: ScenarioRef) =>
  db
    .selectFrom('scenarios')
    .select(['id', 'tag', 'status', 'progress', 'report as reportJson', 'error_code as errorCode'])
    .where('session_id', '=', ref.sessionId)
    .where('id', '=', ref.id),
);

const statusBySessionRefQuery = prepared((db, v: { sessionRef: string; id: string }) =>
  db
    .selectFrom('scenarios')
    .innerJoin('sessions', 'sessions.id', 'scenarios.session_id')
    .select([
      'scenarios.id',
      'scenarios.tag',
      'scenarios.status',
      'scenarios.progress',
      'scenarios.report as reportJson',
      'scenarios.error_code as errorCode',
      'scenarios.session_id as sessionId',
    ])
    .where('scenarios.id', '=', v.id)
    .where((eb) => eb.or([eb('sessions.id', '=', v.sessionRef), eb('sessions.display_name', '=', v.sessionRef)])),
);

/**
 * Inserts the scenario only while its dataset exists, in one statement: on PostgreSQL the dataset
 * row is locked (`for share`) until the insert commits, so a concurrent dataset delete either sees
 * this scenario or happens first (then nothing is inserted). SQLite runs statements one at a time.
 * Run columns take their defaults (no run).
 */
const insertQuery = prepared((db, scenario: NewScenario) => {
  const text = (value: string) => sql<string>`cast(${value} as text)`;
  const source = db
    .selectFrom('datasets')
    .select([
      text(scenario.id).as('id'),
      'session_id',
      text(scenario.tag).as('tag'),
      'key',
      text(scenario.algoName).as('algo_name'),
      text(scenario.algoParamsJson).as('algo_params'),
      text(scenario.dataParamsJson).as('data_params'),
      sql<StoredStatus>`'CREATED'`.as('status'),
      text(scenario.createdAt).as('created_at'),
      sql<string | null>`cast(${scenario.parentId ?? null} as text)`.as('parent_id'),
    ])
    .where('session_id', '=', scenario.sessionId)
    .where('key', '=', scenario.datasetKey);
  return db
    .insertInto('scenarios')
    .columns(['id', 'session_id', 'tag', 'dataset_key', 'algo_name', 'algo_params', 'data_params', 'status', 'created_at', 'parent_id'])
    .expression(dialectAdapterOf(db).sharingRows(source));
});

/** A scenario outside any experiment. */
const NO_EXPERIMENT = { experiment_id: null, experiment_combo: null, axis_values: null } as const;

/** Scenario rows: client-facing reads, insert, delete and copy (run state is `RunsRepository`'s). */
export class ScenariosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The session's scenarios in creation order. */
  list(sessionId: string): Promise<ScenarioRecord[]> {
    return this.db.selectFrom('scenarios').select(recordColumns).where('session_id', '=', sessionId).orderBy('seq').execute();
  }

  /** The session's scenarios among `ids`, in no particular order (unknown ids are simply absent). */
  getMany(sessionId: string, ids: readonly string[]): Promise<ScenarioRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('scenarios').select(recordColumns).where('session_id', '=', sessionId).where('id', 'in', ids).execute();
  }

  /** The run summaries of the session's scenarios among `ids` (no result read): what views key their cache by. */
  runSummaries(sessionId: string, ids: readonly string[]): Promise<RunSummary[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('scenarios')
      .select(['id', 'tag', 'status', 'algo_name as algoName', 'dataset_key as datasetKey', 'finished_at as finishedAt', 'parent_id as parentId'])
      .where('session_id', '=', sessionId)
      .where('id', 'in', ids)
      .execute();
  }

  get(ref: ScenarioRef): Promise<ScenarioRecord | undefined> {
    return this.db
      .selectFrom('scenarios')
      .select(recordColumns)
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .executeTakeFirst();
  }

  /** Whether a scenario of the session has this tag (a branch checks before it derives a dataset). */
  async tagExists(sessionId: string, tag: string): Promise<boolean> {
    const row = await this.db.selectFrom('scenarios').select('id').where('session_id', '=', sessionId).where('tag', '=', tag).executeTakeFirst();
    return row !== undefined;
  }

  async status(ref: ScenarioRef): Promise<ScenarioStatusRecord | undefined> {
    return (await statusQuery(this.db, { sessionId: ref.sessionId, id: ref.id })).rows[0];
  }

  /**
   * The status of a scenario addressed by a session id *or display name* in one query: the polling
   * hot path, which would otherwise resolve the session first. Undefined when either is unknown.
   */
  async statusBySessionRef(sessionRef: string, id: string): Promise<(ScenarioStatusRecord & { sessionId: string }) | undefined> {
    return (await statusBySessionRefQuery(this.db, { sessionRef, id })).rows[0];
  }

  /** The session's PROCESSING scenario, if any (the executor keeps it to at most one). */
  processing(sessionId: string): Promise<ScenarioRecord | undefined> {
    return this.db
      .selectFrom('scenarios')
      .select(recordColumns)
      .where('session_id', '=', sessionId)
      .where('status', '=', 'PROCESSING')
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Stores a CREATED scenario while its dataset exists and answers its row as stored, built from the
   * inserted values (no read back); undefined when the dataset is gone. Throws a unique violation
   * when the tag is taken in the session. `db` is a transaction it is one write of (a branch).
   */
  async insert(scenario: NewScenario, db: Kysely<Database> = this.db): Promise<ScenarioRecord | undefined> {
    const result = await insertQuery(db, scenario);
    if (Number(result.numAffectedRows ?? 0) === 0) return undefined;
    const { progress, result: resultJson, kpi_values, error, error_code, started_at, finished_at, report, seed } = NO_RUN;
    return {
      id: scenario.id,
      sessionId: scenario.sessionId,
      tag: scenario.tag,
      datasetKey: scenario.datasetKey,
      algoName: scenario.algoName,
      algoParamsJson: scenario.algoParamsJson,
      dataParamsJson: scenario.dataParamsJson,
      createdAt: scenario.createdAt,
      status: 'CREATED',
      progress,
      resultJson,
      kpiValuesJson: kpi_values,
      error,
      errorCode: error_code,
      startedAt: started_at,
      finishedAt: finished_at,
      reportJson: report,
      seed,
      parentId: scenario.parentId ?? null,
    };
  }

  /** The scenario's latest run's log lines (the last 1,000) and error; undefined when it does not exist. */
  async logs(ref: ScenarioRef): Promise<ScenarioLogsRecord | undefined> {
    const row = await this.db
      .selectFrom('scenarios')
      .select(['seq', 'status', 'log_count as logCount', 'error', 'error_class as errorClass', 'error_stack as errorStack'])
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { seq, ...rest } = row;
    return { ...rest, lines: rest.logCount > 0 ? await readLogLines(this.db, seq, rest.logCount) : [] };
  }

  /** Deletes the scenario; answers the status it had, or undefined when there was none. */
  async delete(ref: ScenarioRef): Promise<StoredStatus | undefined> {
    const row = await this.db
      .deleteFrom('scenarios')
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .returning('status')
      .executeTakeFirst();
    return row?.status;
  }

  /** Removes the session's QUEUED and PROCESSING scenarios (cancelled with their session); answers them. */
  async deleteActive(sessionId: string): Promise<ScenarioRef[]> {
    const rows = await this.db
      .deleteFrom('scenarios')
      .where('session_id', '=', sessionId)
      .where('status', 'in', ['QUEUED', 'PROCESSING'])
      .returning(['id', 'session_id as sessionId'])
      .execute();
    return rows;
  }

  /**
   * Copies every scenario of one session into another under new ids, in creation order, inside the
   * caller's transaction. A copy keeps its run's result, KPIs, error, report, seed and `ctx.log` lines
   * when `keepsRun(status)`; any other copy starts over as CREATED.
   */
  async copySession(
    fromSessionId: string,
    toSessionId: string,
    newId: () => string,
    keepsRun: (status: StoredStatus) => boolean,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    const rows = await db.selectFrom('scenarios').selectAll().where('session_id', '=', fromSessionId).orderBy('seq').execute();
    if (rows.length === 0) return;
    const copiedIds = new Map(rows.map((row) => [row.id, newId()]));
    const copies = rows.map(({ seq: _seq, ...row }) => {
      // Experiments are not copied: a copied scenario belongs to none. A branch points to its parent's copy.
      const parent_id = row.parent_id === null ? null : (copiedIds.get(row.parent_id) ?? null);
      const base = { ...row, id: copiedIds.get(row.id)!, parent_id, session_id: toSessionId, ...ENDED, attempts: 0, ...NO_EXPERIMENT };
      return keepsRun(row.status) ? base : { ...base, status: 'CREATED' as const, ...NO_RUN };
    });
    // Batches keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < copies.length; i += 200) await db.insertInto('scenarios').values(copies.slice(i, i + 200)).execute();
    await copyKpiValues(db, fromSessionId, toSessionId);
    await new ExplanationsRepository(db).copy(fromSessionId, toSessionId);
    await copyLogLines(db, fromSessionId, toSessionId);
  }
}
