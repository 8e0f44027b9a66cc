import { ScenaristError } from '../errors.js';
import { errors } from '../error-factories.js';
import { planProtectionOf } from '../store/plan-protection.js';
import type { ScenarioRef } from '../store/scenarios-repository.js';
import type { Store } from '../store/store.js';

/**
 * The writes of a scenario that the published plan refuses (docs/api/plans-and-reports.md,
 * "Protection"); a cancel never changes a COMPLETE plan, and is named only to word a refusal.
 */
export type GuardedAction = 'run' | 'reset' | 'delete' | 'cancel';

/**
 * A `catch` for a scenario write: the store's plan trigger (migration 0016) refusing it becomes the
 * client's 409 `PLAN_SCENARIO_PROTECTED`; any other error goes on. `id` is left out where a batch
 * met a plan published after it looked.
 */
export function refusedByPlan(action: GuardedAction, id?: string): (err: unknown) => never {
  return (err) => {
    if (planProtectionOf(err) === 'scenario') throw errors.planScenarioProtected(action, id);
    throw err;
  };
}

/**
 * A `catch` for a refused run: a run of the plan's scenario is refused by its state anyway (a plan is
 * COMPLETE), so only then is the plan looked up, to answer the code that says why it stays refused.
 */
export function explainRefusedRun(store: Store, ref: ScenarioRef): (err: unknown) => Promise<never> {
  return async (err) => {
    if (err instanceof ScenaristError && err.code === 'SCENARIO_STATE_CONFLICT' && (await store.plans.current(ref.sessionId))?.scenario_id === ref.id) {
      throw errors.planScenarioProtected('run', ref.id);
    }
    throw err;
  };
}
