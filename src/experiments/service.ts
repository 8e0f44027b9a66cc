import { randomUUID } from 'node:crypto';
import type { DomainRegistry } from '../domain/registry.js';
import type { Executor } from '../executor/executor.js';
import type { ScenarioBatchActions, BatchAction, BatchResult } from '../scenarios/batch-actions.js';
import type { StatusCache } from '../scenarios/status-cache.js';
import type { ExperimentRecord, NewExperimentScenario } from '../store/experiments-repository.js';
import type { Store } from '../store/store.js';
import { countsView, type StatusCounts } from './counts.js';
import { listAxes, type Axis, type AxisInput } from './grid.js';
import { planExperiment, type ExperimentRequest } from './plan.js';
import { summarize, type ExperimentSummary } from './summary.js';
import { SummaryCache } from './summary-cache.js';
import { exportResults, type ResultFormat, type ResultStyle } from './results-export.js';
import { sweepTags } from './sweep-tags.js';
import type { ExportFile } from '../exports/dataset-export.js';
import { errors } from '../error-factories.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import { pageBySeq } from '../model/list-cursor.js';

/** What is stored of a request, enough to lay the grid out again (values listed, ranges expanded). */
interface ExperimentSpec {
  readonly dataset_key: string | null;
  readonly algo_params: unknown;
  readonly data_params: unknown;
  readonly axes: Record<string, unknown[]>;
  readonly repeats: number;
}

export interface ExperimentView {
  readonly id: string;
  readonly name: string;
  readonly algo_name: string;
  readonly dataset_key: string | null;
  readonly algo_params: unknown;
  readonly data_params: unknown;
  /** Axis path to its values, in grid order. */
  readonly axes: Record<string, unknown[]>;
  readonly repeats: number;
  readonly size: number;
  readonly created_at: string;
  readonly completed_at: string | null;
}

export interface ExperimentDetailView extends ExperimentView {
  readonly counts: StatusCounts;
  readonly progress: number;
  readonly summary: ExperimentSummary | null;
}

export interface ExperimentServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly executor: Executor;
  readonly batch: ScenarioBatchActions;
  readonly maxSize: number;
  readonly statusCache?: StatusCache | undefined;
}

const parseSpec = (record: ExperimentRecord) => JSON.parse(record.specJson) as ExperimentSpec;

function view(record: ExperimentRecord): ExperimentView {
  const spec = parseSpec(record);
  return {
    id: record.id,
    name: record.name,
    algo_name: record.algoName,
    dataset_key: spec.dataset_key,
    algo_params: spec.algo_params,
    data_params: spec.data_params,
    axes: spec.axes,
    repeats: spec.repeats,
    size: record.size,
    created_at: record.createdAt,
    completed_at: record.completedAt,
  };
}

/** The stored axes laid out as the grid was (their values are listed, so nothing is rounded twice). */
const axesOf = (spec: ExperimentSpec): Axis[] => listAxes(spec.axes, () => false);

/** Experiments of a session: create (validated whole, stored in one transaction), read, summarize, act on, delete. */
export class ExperimentService {
  private readonly summaries = new SummaryCache();

  constructor(private readonly deps: ExperimentServiceDeps) {}

  private get repo() {
    return this.deps.store.experiments;
  }

  async create(sessionId: string, request: ExperimentRequest & { readonly run: boolean }): Promise<ExperimentView> {
    const plan = planExperiment(this.deps.domain, request, this.deps.maxSize);
    const id = randomUUID();
    noteAuditTarget('experiment', id);
    const createdAt = new Date().toISOString();
    const scenarios: NewExperimentScenario[] = [];
    const values = plan.combinations.map((c) => JSON.parse(c.axisValuesJson) as Record<string, unknown>);
    const tags = sweepTags(request.name, plan.axes, values, plan.repeats);
    plan.combinations.forEach((combination, combo) => {
      for (let r = 0; r < plan.repeats; r++) {
        scenarios.push({ id: randomUUID(), tag: tags[scenarios.length]!, combo, ...combination });
      }
    });
    const spec: ExperimentSpec = {
      dataset_key: request.datasetKey ?? null,
      algo_params: request.algoParams ?? null,
      data_params: request.dataParams ?? null,
      axes: Object.fromEntries(plan.axes.map((axis) => [axis.path, [...axis.values]])),
      repeats: plan.repeats,
    };
    const refusal = await this.repo.create({
      id,
      sessionId,
      name: request.name,
      algoName: request.algoName,
      specJson: JSON.stringify(spec),
      createdAt,
      scenarios,
      datasetKeys: plan.datasetKeys,
      queue: request.run,
    });
    if (refusal?.refused === 'name-taken') throw errors.experimentNameTaken(request.name);
    if (refusal?.refused === 'tag-taken') throw errors.experimentTagsTaken(request.name);
    if (refusal?.refused === 'missing-datasets') throw errors.datasetsNotFound(refusal.keys, 'dataset_key');
    this.announce(sessionId, scenarios, request.run);
    const record = await this.repo.get(sessionId, id);
    if (!record) throw errors.experimentNotFound(id);

    return view(record);
  }

  /**
   * After the commit: the same per-scenario events (and dispatch) as scenarios created and run one by
   * one; the status cache follows them.
   */
  private announce(sessionId: string, scenarios: readonly NewExperimentScenario[], queued: boolean): void {
    const { executor } = this.deps;
    for (const s of scenarios) {
      executor.events.emit('run:created', { scenarioId: s.id, sessionId, tag: s.tag });
    }
    if (queued) for (const s of scenarios) executor.queued({ scenarioId: s.id, sessionId });
  }

  async list(sessionId: string, limit: number, afterSeq: number | undefined): Promise<{ items: ExperimentView[]; lastSeq: number | undefined }> {
    return pageBySeq(await this.repo.page(sessionId, limit, afterSeq), limit, view);
  }

  async get(sessionId: string, id: string): Promise<ExperimentDetailView> {
    const record = await this.record(sessionId, id);
    const spec = parseSpec(record);
    const counts = await this.repo.counts(sessionId, id);
    // Read after the counts, so a summary is never older than the stamp it is kept under.
    const complete = counts.find((c) => c.status === 'COMPLETE')?.stamp ?? 'none';
    const summary = await this.summaries.get(`${sessionId}\u0000${id}`, complete, () => summarize(this.deps.store.db, this.deps.domain, sessionId, id, axesOf(spec)));
    return { ...view(record), ...countsView(counts), summary: summary ?? null };
  }

  /**
   * The results export: one row per scenario, streamed in `format` and `style`; 404 for an unknown
   * experiment, 400 for the readable style as JSON (JSON is for programs: it keeps the API's names).
   */
  async results(sessionId: string, id: string, format: ResultFormat, style: ResultStyle = 'machine'): Promise<ExportFile> {
    if (style === 'readable' && format === 'json') throw errors.queryInvalid([{ path: 'style', message: 'the readable style is for csv and xlsx; json keeps the API names' }]);
    const record = await this.record(sessionId, id);
    return exportResults({ repo: this.repo, domain: this.deps.domain, record, axes: axesOf(parseSpec(record)) }, format, style);
  }

  /** Run, cancel or reset every scenario of the experiment, in one transaction. */
  async act(sessionId: string, id: string, action: Exclude<BatchAction, 'delete'>): Promise<BatchResult> {
    await this.record(sessionId, id);
    return this.deps.batch.apply(sessionId, action, { filter: { experiment: id } });
  }

  /** Deletes the experiment and every scenario of it (queued and running ones are cancelled first). */
  async delete(sessionId: string, id: string): Promise<BatchResult> {
    await this.record(sessionId, id);
    const result = await this.deps.batch.apply(sessionId, 'delete', { filter: { experiment: id } });
    await this.repo.delete(sessionId, id);
    this.summaries.drop(`${sessionId}\u0000${id}`);
    return result;
  }

  private async record(sessionId: string, id: string): Promise<ExperimentRecord> {
    const record = await this.repo.get(sessionId, id);
    if (!record) throw errors.experimentNotFound(id);

    return record;
  }
}

export type { AxisInput };
