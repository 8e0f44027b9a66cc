import { randomUUID } from 'node:crypto';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { Executor } from '../executor/executor.js';
import type { Actor } from '../model/actor.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import { pageBySeq } from '../model/list-cursor.js';
import { newSeed } from '../model/run-state/run-insight.js';
import { STATUSES } from '../model/run-state/state-machine.js';
import type { BatchResult, ScenarioBatchActions } from '../scenarios/batch-actions.js';
import type { StoredStatus } from '../store/database.js';
import { GatesRepository, type GateRecord, type NewGateScenario } from '../store/gates-repository.js';
import type { Store } from '../store/store.js';
import { gateReportBody, type GateReportBody, type GateReportInput } from './gate-report.js';
import { resolveInputs } from './inputs.js';
import { planGate, type GatePlan, type PlannedSide } from './plan.js';
import type { GateInputs, GateRequest } from './request.js';
import type { KpiVerdict } from './statistics.js';
import { loadPairedTests } from './load-paired-tests.js';
import { gateVerdict, type KpiVerdictView } from './verdict.js';

/** What is stored of a request: enough to show it, and to compute its verdict again from the runs. */
interface GateSpec extends GatePlan {
  readonly inputs: GateInputs;
  readonly dataset_keys: readonly string[];
  readonly repeats: number;
  readonly alpha: number;
  readonly min_effect: number | Readonly<Record<string, number>>;
}

export interface GateView {
  readonly id: string;
  readonly name: string;
  readonly baseline: PlannedSide;
  readonly candidate: PlannedSide;
  /** As requested. */
  readonly inputs: GateInputs;
  /** What `inputs` resolved to when the gate was created. */
  readonly dataset_keys: string[];
  readonly repeats: number;
  readonly alpha: number;
  readonly min_effect: number | Readonly<Record<string, number>>;
  readonly kpi_names: string[];
  readonly rule: { must_pass: string[]; must_not_fail: string[] };
  /** How many scenarios it created: inputs × repeats × 2. */
  readonly size: number;
  readonly created_at: string;
}

export interface GateDetailView extends GateView {
  /** `running` while a run of it is queued or running; then `complete`. */
  readonly status: 'running' | 'complete';
  readonly counts: Record<StoredStatus, number>;
  /** Share of its runs no longer queued or running, 0 to 1. */
  readonly progress: number;
  /** Null while running. */
  readonly verdict: KpiVerdict | null;
  readonly kpis: KpiVerdictView[] | null;
}

export interface GateServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly executor: Executor;
  readonly batch: ScenarioBatchActions;
  /** The bound on scenarios of one gate (the experiments' `max_experiment_size`). */
  readonly maxSize: number;
}

const parseSpec = (record: GateRecord) => JSON.parse(record.specJson) as GateSpec;

function view(record: GateRecord): GateView {
  const spec = parseSpec(record);
  return {
    id: record.id,
    name: record.name,
    baseline: spec.baseline,
    candidate: spec.candidate,
    inputs: spec.inputs,
    dataset_keys: [...spec.dataset_keys],
    repeats: spec.repeats,
    alpha: spec.alpha,
    min_effect: spec.min_effect,
    kpi_names: spec.kpis.map((k) => k.name),
    rule: { must_pass: [...spec.rule.must_pass], must_not_fail: [...spec.rule.must_not_fail] },
    size: record.size,
    created_at: record.createdAt,
  };
}

/** Acceptance gates of a session: create (validated whole, stored and queued in one transaction), read with the verdict, delete. */
export class GateService {
  private readonly repo: GatesRepository;

  constructor(private readonly deps: GateServiceDeps) {
    this.repo = new GatesRepository(deps.store.db);
  }

  async create(sessionId: string, request: GateRequest): Promise<GateView> {
    const plan = planGate(this.deps.domain, request);
    const datasetKeys = await resolveInputs(this.repo, sessionId, request.inputs);
    const size = datasetKeys.length * request.repeats * 2;
    if (size > this.deps.maxSize) throw errors.gateTooLarge(size, this.deps.maxSize);
    const id = randomUUID();
    noteAuditTarget('gate', id);
    const createdAt = new Date().toISOString();
    const scenarios: NewGateScenario[] = [];
    const sides = [
      ['baseline', plan.baseline],
      ['candidate', plan.candidate],
    ] as const;
    datasetKeys.forEach((datasetKey, input) => {
      for (let r = 0; r < request.repeats; r++) {
        const pair = input * request.repeats + r;
        // One seed per pair, for both sides: the runs differ by configuration alone.
        const seed = newSeed();
        for (const [side, config] of sides) {
          scenarios.push({
            id: randomUUID(),
            tag: `${request.name}/${side}/${pair + 1}`,
            side,
            pair,
            seed,
            datasetKey,
            algoName: config.algo_name,
            algoParamsJson: JSON.stringify(config.algo_params),
            dataParamsJson: JSON.stringify(config.data_params),
          });
        }
      }
    });
    const spec: GateSpec = { ...plan, inputs: request.inputs, dataset_keys: datasetKeys, repeats: request.repeats, alpha: request.alpha, min_effect: request.minEffect };
    const refusal = await this.repo.create({ id, sessionId, name: request.name, specJson: JSON.stringify(spec), createdAt, scenarios, datasetKeys });
    if (refusal?.refused === 'name-taken') throw errors.gateNameTaken(request.name);
    if (refusal?.refused === 'tag-taken') throw errors.gateTagsTaken(request.name);
    if (refusal?.refused === 'missing-datasets') throw errors.datasetsNotFound(refusal.keys, 'inputs');
    // After the commit: the same per-scenario events and dispatch as scenarios created and run one by one.
    const { executor } = this.deps;
    for (const s of scenarios) executor.events.emit('run:created', { scenarioId: s.id, sessionId, tag: s.tag });
    for (const s of scenarios) executor.queued({ scenarioId: s.id, sessionId });
    const record = await this.repo.get(sessionId, id);
    if (!record) throw errors.gateNotFound(id);
    return view(record);
  }

  async list(sessionId: string, limit: number, afterSeq: number | undefined): Promise<{ items: GateView[]; lastSeq: number | undefined }> {
    return pageBySeq(await this.repo.page(sessionId, limit, afterSeq), limit, view);
  }

  /** The gate with its progress and, once none of its runs is queued or running, its verdict. */
  async get(sessionId: string, id: string): Promise<GateDetailView> {
    const record = await this.record(sessionId, id);
    const spec = parseSpec(record);
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<StoredStatus, number>;
    for (const row of await this.repo.counts(sessionId, id)) counts[row.status] = row.count;
    const open = counts.QUEUED + counts.PROCESSING;
    const progress = record.size === 0 ? 1 : Math.max(0, Math.min(1, (record.size - open) / record.size));
    if (open > 0) return { ...view(record), status: 'running', counts, progress, verdict: null, kpis: null };
    const verdict = gateVerdict(spec, spec.alpha, await this.repo.runs(sessionId, id), await loadPairedTests());
    return { ...view(record), status: 'complete', counts, progress, verdict: verdict.verdict, kpis: verdict.kpis };
  }

  /**
   * Freezes the gate's verdict as a report (kind `gate`) in the session's reports: 409 GATE_RUNNING
   * while a run of it is queued or running. The report's `scenario_ids` are the gate's runs then.
   */
  async saveReport(sessionId: string, id: string, input: GateReportInput, by: Actor): Promise<GateReportBody> {
    const gate = await this.get(sessionId, id);
    if (gate.verdict === null || gate.kpis === null) throw errors.gateRunning(id, gate.counts.QUEUED + gate.counts.PROCESSING);
    const reportId = randomUUID();
    noteAuditTarget('report', reportId);
    const unitOf = (kpi: string) => this.deps.domain.kpis.find((k) => k.name === kpi)?.unit ?? '';
    const body = gateReportBody({ ...gate, verdict: gate.verdict, kpis: gate.kpis }, input, { id: reportId, createdAt: new Date().toISOString(), by, unitOf });
    const runIds = (await this.repo.runs(sessionId, id)).map((r) => r.id);
    await this.deps.store.reports.insert({
      id: reportId,
      session_id: sessionId,
      title: body.title,
      note: body.note,
      scenario_ids: JSON.stringify(runIds),
      created_by_id: by.id,
      created_by_name: by.name,
      created_at: body.created_at,
      body: JSON.stringify(body),
      kind: 'gate',
    });
    return body;
  }

  /** Deletes the gate and every scenario of it (queued and running ones are cancelled first). */
  async delete(sessionId: string, id: string): Promise<BatchResult> {
    await this.record(sessionId, id);
    const ids = (await this.repo.runs(sessionId, id)).map((r) => r.id);
    const result = await this.deps.batch.apply(sessionId, 'delete', { ids });
    await this.repo.delete(sessionId, id);
    return result;
  }

  private async record(sessionId: string, id: string): Promise<GateRecord> {
    const record = await this.repo.get(sessionId, id);
    if (!record) throw errors.gateNotFound(id);
    return record;
  }
}
