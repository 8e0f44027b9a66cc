import type { AnyAlgorithm } from '../../domain/define.js';
import type { DomainRegistry } from '../../domain/registry.js';
import type { RunLogger } from '../../domain/run-context.js';
import type { DatasetLoader, RunJob } from './job.js';

/** The published plan a run starts from, as read: its result still as stored text. */
export interface WarmStart {
  readonly planId: string;
  readonly scenarioId: string;
  readonly resultJson: string;
}

/**
 * The published plan a run of `algorithm` receives, recorded on the scenario as `warm_start_from`
 * before the run computes anything (null when it receives none), and said in the run's log either way:
 * a hint is never dropped silently. Only for an algorithm declaring `warmStart: true`; a plan applies
 * when its dataset has the run's dataset key and its algorithm returns this algorithm's result type
 * (when it declares one), so `ctx.previousPlan.result` is of the type the algorithm's author wrote.
 */
export async function warmStartOf(job: RunJob, algorithm: AnyAlgorithm, domain: DomainRegistry, datasets: DatasetLoader, log: RunLogger): Promise<WarmStart | undefined> {
  if (algorithm.warmStart !== true) return undefined;
  const plans = datasets.warmStart;
  if (plans === undefined) {
    log.warn('warm start: this executor cannot read the published plan; starting without one');
    return undefined;
  }
  const plan = await plans.planOn(job.sessionId, job.datasetKey);
  let given: WarmStart | undefined;
  if (plan === undefined) {
    log.info(`warm start: no published plan on dataset "${job.datasetKey}"; starting without one`);
  } else if (!returnsSameType(algorithm, domain.algorithm(plan.algoName))) {
    log.warn(`warm start: the published plan (scenario ${plan.scenarioId}) was made by "${plan.algoName}", whose result type is not "${algorithm.result?.name ?? ''}"; starting without it`);
  } else {
    log.info(`warm start: starting from the published plan (scenario ${plan.scenarioId})`);
    given = { planId: plan.planId, scenarioId: plan.scenarioId, resultJson: plan.resultJson };
  }
  await plans.record(job.sessionId, job.scenarioId, given?.scenarioId ?? null);
  return given;
}

/** An algorithm without a result type takes any plan; one with a type, a plan of the same type only. */
function returnsSameType(algorithm: AnyAlgorithm, planAlgorithm: AnyAlgorithm | undefined): boolean {
  const type = algorithm.result?.name;
  return type === undefined || planAlgorithm?.result?.name === type;
}
