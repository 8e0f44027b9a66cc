import type { DomainRegistry } from '../../domain/registry.js';
import { ResultChurnRepository, type ChurnRow, type ResultRow } from '../../store/result-churn-repository.js';
import type { ScenarioRecord } from '../../store/scenarios-repository.js';
import type { Store } from '../../store/store.js';
import { churnOf, diffResults, hasKeyedResult, sharedResultKeys } from './result-diff.js';

/** `plan_churn` on the wire: how far a scenario's keyed result is from the published plan's. */
export interface PlanChurn {
  readonly rows_changed: number;
  readonly share: number;
}

/** The slice of a logger a background measurement reports its failure to. */
export interface ChurnLog {
  warn(fields: object, message: string): void;
}

type Measured = Pick<ScenarioRecord, 'id' | 'status' | 'algoName' | 'finishedAt'>;

/**
 * Churn against the published plan, measured once per (scenario result, plan) and kept in
 * `result_churn`, so a list reads it rather than diffing results. Measured when a run completes and
 * when a plan is published (each for what it changed); a reader that finds a COMPLETE keyed scenario
 * without a row for the current plan and its current result (a completion that raced a publication,
 * a store migrated with results already in it) measures it then, once. A row applies only while both
 * its plan and its result are current, so it never answers for an older pair.
 */
export class PlanChurns {
  private readonly rows: ResultChurnRepository;

  constructor(private readonly deps: { readonly store: Store; readonly domain: DomainRegistry; readonly log?: ChurnLog }) {
    this.rows = new ResultChurnRepository(deps.store.db);
  }

  /**
   * `plan_churn` of each record, by id (absent: null). Costs nothing when none of them is a COMPLETE
   * keyed result; else one read of the plan and one of the kept rows.
   */
  async of(sessionId: string, records: readonly Measured[]): Promise<Map<string, PlanChurn>> {
    const churns = new Map<string, PlanChurn>();
    const complete = records.filter((r) => r.status === 'COMPLETE' && r.finishedAt !== null && hasKeyedResult(this.deps.domain, r.algoName));
    if (complete.length === 0) return churns;
    const plan = await this.deps.store.plans.current(sessionId);
    if (!plan) return churns;
    // Only results that share a keyed table with the plan's have a churn (an unrelated result type has none).
    const keyed = complete.filter((r) => sharedResultKeys(this.deps.domain, plan.algo_name, r.algoName).length > 0);
    if (keyed.length === 0) return churns;
    const kept = new Map((await this.rows.measured(plan.id, keyed.map((r) => r.id))).map((row) => [row.scenarioId, row]));
    const missing: string[] = [];
    for (const record of keyed) {
      const row = kept.get(record.id);
      if (row && row.resultFinishedAt === record.finishedAt) churns.set(record.id, { rows_changed: row.rowsChanged, share: row.share });
      else missing.push(record.id);
    }
    if (missing.length > 0) for (const row of await this.measure(sessionId, plan, missing)) churns.set(row.scenarioId, { rows_changed: row.rowsChanged, share: row.share });
    return churns;
  }

  /** The records with `planChurn` set: what `scenarioView` answers as `plan_churn`. */
  async attach<R extends ScenarioRecord>(sessionId: string, records: readonly R[]): Promise<R[]> {
    const churns = await this.of(sessionId, records);
    return records.map((record) => ({ ...record, planChurn: churns.get(record.id) ?? null }));
  }

  /** After a run completed: measures it against the current plan. */
  async completed(sessionId: string, scenarioId: string): Promise<void> {
    const plan = await this.deps.store.plans.current(sessionId);
    if (plan) await this.measure(sessionId, plan, [scenarioId]);
  }

  /** After a publication: measures every COMPLETE keyed scenario of the session not yet measured against it. */
  async published(sessionId: string): Promise<void> {
    const plan = await this.deps.store.plans.current(sessionId);
    if (!plan) return;
    const sharing = this.keyedAlgorithms().filter((name) => sharedResultKeys(this.deps.domain, plan.algo_name, name).length > 0);
    const ids = await this.rows.unmeasured(sessionId, plan.id, sharing);
    if (ids.length > 0) await this.measure(sessionId, plan, ids);
  }

  /** Runs `measure` off the request that caused it; a failure is logged, and the next reader measures instead. */
  inBackground(what: string, work: () => Promise<void>): void {
    void work().catch((err: unknown) => this.deps.log?.warn({ err }, `plan churn: measuring after ${what} failed; the next read measures it`));
  }

  private keyedAlgorithms(): string[] {
    return this.deps.domain.algorithmNames.filter((name) => hasKeyedResult(this.deps.domain, name));
  }

  /** Diffs each scenario's result against the plan's and keeps it; answers what it kept. */
  private async measure(sessionId: string, plan: { readonly id: string; readonly scenario_id: string; readonly algo_name: string }, ids: readonly string[]): Promise<ChurnRow[]> {
    const algorithms = this.keyedAlgorithms();
    const [planRow] = await this.rows.results(sessionId, algorithms, [plan.scenario_id]);
    const planResult = parsed(planRow);
    if (planRow === undefined || planResult === undefined) return [];
    const measured: ChurnRow[] = [];
    for (const row of await this.rows.results(sessionId, algorithms, ids)) {
      const result = parsed(row);
      const keys = sharedResultKeys(this.deps.domain, planRow.algoName, row.algoName);
      if (result === undefined || row.finishedAt === null || keys.length === 0) continue;
      const churn = churnOf(diffResults(planResult, result, keys));
      const kept = { scenarioId: row.id, resultFinishedAt: row.finishedAt, rowsChanged: churn.rows_changed, share: churn.share };
      if (await this.rows.keep(sessionId, plan.id, kept)) measured.push(kept);
    }
    return measured;
  }
}

function parsed(row: ResultRow | undefined): unknown {
  return row?.resultJson === null || row === undefined ? undefined : (JSON.parse(row.resultJson) as unknown);
}
