import type { AnyAlgorithm, AnyExternalAlgorithm } from '../../domain/define.js';
import { isExternal } from '../../domain/external-algorithm.js';
import type { RunContext } from '../../domain/run-context.js';
import { typedDataset } from '../../domain/typed-dataset.js';
import { coerceError } from '../../errors.js';
import { validateParams } from '../../params/validate.js';
import { ExternalFailure } from './external/external-failure.js';
import { DEFAULT_EXTERNAL_LIMITS } from './external/external-limits.js';
import { runExternal, type ExternalRun } from './external/run-external.js';
import { parseStdout } from './external/stdout-result.js';
import { resultTextFits } from './result-text-check.js';
import { computeKpis, KpiError } from './kpis.js';
import type { RunEnvironment, RunJob, RunOutcome } from './job.js';
import { monotoneProgress } from './progress.js';
import { resultMismatch } from './result-check.js';
import { seededRandom } from './seeded-random.js';
import { checkedExplanation, type ExplanationRun } from './explanation-check.js';
import { mayHoldExplanation, splitExplanation } from './external/explanation-member.js';
import { thrownError, type DomainCode } from './thrown-error.js';
import { warmStartOf, type WarmStart } from './warm-start.js';
import type { ContractInput } from './external/contract-input.js';

/** Wraps what the domain's own code (`prepare`, `run`) threw, to tell it from the run's own checks. */
class ThrownByDomain extends Error {
  constructor(readonly thrown: unknown) {
    super('thrown by the domain module');
  }
}

async function domainCall<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (thrown) {
    throw new ThrownByDomain(thrown);
  }
}

/**
 * The core of every executor: one run of one scenario, from its job to its outcome. Loads the
 * dataset, applies the data source's `prepare` with the data parameters, runs the algorithm with a
 * context, serialises the result and computes the KPIs. Never throws: whatever goes wrong (even a
 * thrown string) becomes a FAILED outcome whose message is safe to show and whose stack is for the log.
 * Independent of threads and queues, so the local and the distributed executors share it.
 */
export async function runScenario(job: RunJob, env: RunEnvironment): Promise<RunOutcome> {
  try {
    return await attempt(job, env);
  } catch (caught) {
    const byDomain = caught instanceof ThrownByDomain;
    const err = coerceError(byDomain ? caught.thrown : caught);
    const code = err instanceof KpiError ? 'KPI_ERROR' : err instanceof ExternalFailure ? err.code : 'ALGORITHM_ERROR';
    // A KPI's own error is the cause of the KpiError that names the KPI.
    const domainThrown = byDomain ? caught.thrown : err instanceof KpiError ? err.cause : undefined;
    const thrown = thrownError(domainThrown, env);
    return { status: 'FAILED', message: err.message || err.name, stack: err.stack, code, ...(thrown ? { thrown } : {}) };
  }
}

async function attempt(job: RunJob, env: RunEnvironment): Promise<RunOutcome> {
  const { domain } = env;
  const algorithm = domain.algorithm(job.algoName);
  if (!algorithm) throw new Error(`algorithm '${job.algoName}' is not registered in domain '${domain.name}'`);
  // The domain may have changed since the scenario was created (a restart with a new module).
  const params = validateParams(algorithm.parameters, job.algoParams);
  const dataParams = validateParams(domain.dataParameters, job.dataParams);

  const kpis = domain.kpisFor(algorithm.name);
  const warm = await warmStartOf(job, algorithm, domain, env.datasets, env.log);
  // An external program with no KPI to compute: nothing of the run reads the dataset or the result as
  // objects (the data source's `prepare` only feeds KPIs), so both stay text, each held once.
  if (isExternal(algorithm) && kpis.length === 0 && env.datasets.loadTablesJson !== undefined) {
    const output = await runExternal({
      ...externalRun(algorithm, env),
      input: { tables: await env.datasets.loadTablesJson(job.sessionId, job.datasetKey, job.scenarioId, job.datasetVersion), params, dataParams, seed: job.seed, ...previousPlanInput(algorithm, warm) },
    });
    env.signal.throwIfAborted();
    const explains = mayHoldExplanation(output);
    if (!explains && resultTextFits(algorithm.result, output)) return { status: 'COMPLETE', resultJson: output.trim(), kpis: {} };
    // Not surely of the type, or explained: parsed whole, which also names what is wrong.
    const { result, explanation } = splitExplanation(parseStdout(output));
    const outcome = checkedOutcome(algorithm, result, () => ({}), env);
    const rows = { schemas: domain.domain.schemas, dataset: () => env.datasets.load(job.sessionId, job.datasetKey, job.scenarioId, job.datasetVersion) };
    return explainedOutcome(outcome, explanation, { algorithm: algorithm.name, source: '$explanation', kpis, values: {}, result, data: undefined, ...rows }, env);
  }

  const dataset = await env.datasets.load(job.sessionId, job.datasetKey, job.scenarioId, job.datasetVersion);
  env.signal.throwIfAborted();
  const source = domain.dataSource;
  const view = typedDataset(dataset, domain.domain.schemas);
  // A method call, so a data source written as a class keeps its `this`.
  const data: unknown = source?.prepare ? await domainCall<unknown>(() => source.prepare!(view, dataParams)) : view;

  const report = monotoneProgress(env.progress);
  let explained: unknown;
  const ctx: RunContext = {
    progress: (fraction) => {
      report(fraction);
      // A synchronous loop stops at its next report once the run is cancelled.
      env.signal.throwIfAborted();
    },
    report: (value) => env.report?.(value),
    signal: env.signal,
    log: env.log,
    random: seededRandom(job.seed),
    deadline: new Date(job.deadline),
    explain: (explanation) => {
      explained = explanation;
    },
    ...(warm ? { previousPlan: { planId: warm.planId, scenarioId: warm.scenarioId, result: JSON.parse(warm.resultJson) as unknown } } : {}),
  };
  // An external program's stdout is parsed here and its text dropped: the KPIs read the parsed result.
  let result: unknown;
  if (isExternal(algorithm)) {
    const output = parseStdout(await runExternal({ ...externalRun(algorithm, env), input: { tables: dataset.tables, params, dataParams, seed: job.seed, ...previousPlanInput(algorithm, warm) } }));
    ({ result, explanation: explained } = splitExplanation(output));
  } else {
    result = await domainCall<unknown>(() => algorithm.run(data, params, ctx));
  }
  env.signal.throwIfAborted();
  const outcome = checkedOutcome(algorithm, result, () => computeKpis(kpis, result, data), env);
  const givenBy = isExternal(algorithm) ? '$explanation' : 'ctx.explain';
  const values = outcome.status === 'COMPLETE' ? outcome.kpis : {};
  const run = { algorithm: algorithm.name, source: givenBy, kpis, values, result, data, dataset: () => dataset, schemas: domain.domain.schemas };
  return explainedOutcome(outcome, explained, run, env);
}

/**
 * A COMPLETE outcome with its explanation, checked (a wrong one throws, naming the path); a KPI's terms
 * that fail keep the result beside the failure, as the KPI's own failure does.
 */
async function explainedOutcome(outcome: RunOutcome, given: unknown, run: ExplanationRun, domainCode: DomainCode): Promise<RunOutcome> {
  if (outcome.status !== 'COMPLETE') return outcome;
  try {
    const explanation = await checkedExplanation(given, run);
    return explanation ? { ...outcome, explanation } : outcome;
  } catch (thrown) {
    if (!(thrown instanceof KpiError)) throw thrown;
    const cause = thrownError(thrown.cause, domainCode);
    return { status: 'FAILED', message: thrown.message, stack: thrown.stack, code: 'KPI_ERROR', resultJson: outcome.resultJson, ...(cause ? { thrown: cause } : {}) };
  }
}

/** An external program's `previous_plan`: given (null when no plan applies) only to a program declaring warm start. */
function previousPlanInput(algorithm: AnyAlgorithm, warm: WarmStart | undefined): Pick<ContractInput, 'previousPlan'> {
  return algorithm.warmStart === true ? { previousPlan: warm ?? null } : {};
}

/** What every external run of `algorithm` shares, its input aside. */
function externalRun(algorithm: AnyExternalAlgorithm, env: RunEnvironment): Omit<ExternalRun, 'input'> {
  const report = monotoneProgress(env.progress);
  return {
    external: algorithm.external,
    baseDir: env.domainDir ?? process.cwd(),
    limits: env.externalLimits ?? DEFAULT_EXTERNAL_LIMITS,
    signal: env.signal,
    progress: report,
    report: (value) => env.report?.(value),
    log: env.log,
  };
}

/**
 * The outcome of a result: checked against the algorithm's result type, serialised for the store, then
 * its KPIs computed (a KPI's failure keeps the result beside it).
 */
function checkedOutcome(algorithm: AnyAlgorithm, result: unknown, computeAll: () => Record<string, number>, domainCode: DomainCode): RunOutcome {
  if (result === undefined || result === null) throw new Error(`algorithm '${algorithm.name}' returned no result (${String(result)})`);
  const mismatch = resultMismatch(algorithm.result, result);
  if (mismatch !== undefined) throw new Error(`algorithm '${algorithm.name}': ${mismatch}`);
  const resultJson = JSON.stringify(result) as string | undefined;
  if (resultJson === undefined) throw new Error(`algorithm '${algorithm.name}' returned a result that is not JSON (${typeof result})`);

  let kpis: Record<string, number>;
  try {
    kpis = computeAll();
  } catch (thrown) {
    // The algorithm did its work: its result is kept beside the KPI's failure.
    if (thrown instanceof KpiError) {
      const cause = thrownError(thrown.cause, domainCode);
      return { status: 'FAILED', message: thrown.message, stack: thrown.stack, code: 'KPI_ERROR', resultJson, ...(cause ? { thrown: cause } : {}) };
    }
    throw thrown;
  }
  // No closing report of 1 here: the completed state says 1, and the algorithm's own last report
  // stays the one its run announces before that event (docs/api/events.md).
  return { status: 'COMPLETE', resultJson, kpis };
}
