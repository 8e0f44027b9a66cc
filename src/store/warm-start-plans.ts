import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** The published plan a warm-started run may start from, as a run reads it. */
export interface PlanToStartFrom {
  readonly planId: string;
  readonly scenarioId: string;
  /** The plan scenario's algorithm: whether it returns the warm-started algorithm's result type is the run's question. */
  readonly algoName: string;
  /** The plan scenario's result as stored (a plan's scenario is COMPLETE, and its triggers keep it so). */
  readonly resultJson: string;
}

/**
 * What a run of a warm-start algorithm reads and writes about the published plan (docs/api/cycles.md,
 * "Result diffs, churn and warm start"). Reached through `DatasetsRepository.warmStartPlans()`, so the
 * executors' dataset loader carries it to the run without another handle on the store.
 */
export class WarmStartPlans {
  constructor(private readonly db: Kysely<Database>) {}

  /** The session's current plan when its dataset is `datasetKey`; undefined otherwise. */
  async planOn(sessionId: string, datasetKey: string): Promise<PlanToStartFrom | undefined> {
    const row = await this.db
      .selectFrom('plans as p')
      .innerJoin('scenarios as s', 's.id', 'p.scenario_id')
      .select(['p.id as planId', 'p.scenario_id as scenarioId', 's.algo_name as algoName', 's.result as resultJson'])
      .where('p.session_id', '=', sessionId)
      .where('p.ended_at', 'is', null)
      .where('p.dataset_key', '=', datasetKey)
      .where('s.dataset_key', '=', datasetKey)
      .executeTakeFirst();
    return row && row.resultJson !== null ? { ...row, resultJson: row.resultJson } : undefined;
  }

  /** Records on the scenario which plan its run received (null: none), before the run starts computing. */
  async record(sessionId: string, scenarioId: string, planScenarioId: string | null): Promise<void> {
    await this.db.updateTable('scenarios').set({ warm_start_from: planScenarioId }).where('session_id', '=', sessionId).where('id', '=', scenarioId).execute();
  }
}
