import type { DomainRegistry } from '../domain/registry.js';
import type { Executor } from '../executor/executor.js';
import { decodeCursor, encodeCursor } from '../model/list-cursor.js';
import { listScenarioPage, type ScenarioFilter, type ScenarioSort } from '../store/scenario-list-query.js';
import type { Store } from '../store/store.js';
import { scenarioView, type ScenarioView } from './view.js';
import { errors } from '../error-factories.js';
import { PlanChurns, type PlanChurn } from './results/plan-churn.js';

/** The top-level fields of a scenario, any of which `fields` may select. */
export const SCENARIO_FIELDS = [
  'id',
  'tag',
  'input_data_id',
  'algorithm',
  'kpis',
  'status',
  'result',
  'data_parameters',
  'progress',
  'created_at',
  'started_at',
  'finished_at',
  'error',
  'report',
  'seed',
  'parent_id',
  'warm_start_from',
  'plan_churn',
  'dataset_version',
  'result_dataset_version',
  'stale',
] as const satisfies readonly (keyof ScenarioView)[];
type ScenarioField = (typeof SCENARIO_FIELDS)[number];

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** The list route's query: the store's filter (declared once, there) and how to sort, page and trim the rows. */
export interface ScenarioListParams extends ScenarioFilter {
  readonly sort?: string;
  readonly limit?: number;
  readonly cursor?: string;
  readonly fields?: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
}

/** `created_at`, `-tag`, `kpi:<name>`, `-kpi:<name>`, ...; 400 for anything else or an unknown KPI. */
export function parseSort(text: string, domain: DomainRegistry): ScenarioSort {
  const descending = text.startsWith('-');
  const key = descending ? text.slice(1) : text;
  if (key === 'created_at' || key === 'tag') return { by: key, descending };
  if (key.startsWith('kpi:')) {
    const kpi = key.slice('kpi:'.length);
    if (!domain.kpiNames.includes(kpi)) throw errors.sortKpiUnknown(kpi, domain.kpiNames);
    return { by: 'kpi', kpi, descending };
  }
  throw errors.scenarioSortInvalid(text);
}

/** The selected fields; 400 for a name that is not a scenario field. Undefined: every field. */
export function parseFields(text: string | undefined): readonly ScenarioField[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = names.find((f) => !(SCENARIO_FIELDS as readonly string[]).includes(f));
  if (unknown !== undefined) throw errors.scenarioFieldUnknown(unknown, SCENARIO_FIELDS);
  if (names.length === 0) throw errors.scenarioFieldsEmpty(SCENARIO_FIELDS);

  return [...new Set(names)] as ScenarioField[];
}

function pick(view: ScenarioView, fields: readonly ScenarioField[] | undefined): Partial<ScenarioView> {
  if (fields === undefined) return view;
  return Object.fromEntries(fields.map((f) => [f, view[f]]));
}

export interface ScenarioPageDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly executor: Executor;
}

/** One page of the session's scenarios for the list route's query parameters. */
export async function scenarioPage(deps: ScenarioPageDeps, sessionId: string, params: ScenarioListParams): Promise<Page<Partial<ScenarioView>>> {
  const sortText = params.sort ?? 'created_at';
  const sort = parseSort(sortText, deps.domain);
  const fields = parseFields(params.fields);
  const limit = params.limit ?? DEFAULT_PAGE_SIZE;
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, sortText);
  // Stale marks: one read of the session's current versions for the page, made while the page is read.
  const versions = deps.store.datasetVersions.currentVersions(sessionId);
  const rows = await listScenarioPage(deps.store.db, deps.store.adapter, {
    sessionId,
    filter: { status: params.status, algo: params.algo, dataset: params.dataset, q: params.q, experiment: params.experiment, parent: params.parent },
    sort,
    limit,
    after,
    withResult: fields === undefined || fields.includes('result'),
  });
  const page = rows.slice(0, limit);
  // Only when asked for: churn is read from kept measurements, one query for the page.
  const churns = fields === undefined || fields.includes('plan_churn') ? await new PlanChurns(deps).of(sessionId, page.map(({ record }) => record)) : new Map<string, PlanChurn>();
  const current = await versions;
  const last = page.at(-1);
  const next = rows.length > limit && last ? encodeCursor({ sort: sortText, value: last.sortValue, seq: last.seq }) : null;
  return {
    items: page.map(({ record }) =>
      pick(scenarioView({ ...record, planChurn: churns.get(record.id) ?? null }, deps.domain, deps.executor.live(record.id), current), fields),
    ),
    next_cursor: next,
  };
}
