import type { RunContext } from '../../domain/define.js';
import { typedDataset } from '../../domain/typed-dataset.js';
import { coerceError } from '../../errors.js';
import { validateParams } from '../../params/validate.js';
import { computeKpis, KpiError } from './kpis.js';
import type { RunEnvironment, RunJob, RunOutcome } from './job.js';
import { monotoneProgress } from './progress.js';

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
  } catch (thrown) {
    const err = coerceError(thrown);
    const code = err instanceof KpiError ? 'KPI_ERROR' : 'ALGORITHM_ERROR';
    return { status: 'FAILED', message: err.message || err.name, stack: err.stack, code };
  }
}

async function attempt(job: RunJob, env: RunEnvironment): Promise<RunOutcome> {
  const { domain } = env;
  const algorithm = domain.algorithm(job.algoName);
  if (!algorithm) throw new Error(`algorithm '${job.algoName}' is not registered in domain '${domain.name}'`);
  // The domain may have changed since the scenario was created (a restart with a new module).
  const params = validateParams(algorithm.parameters, job.algoParams);
  const dataParams = validateParams(domain.dataParameters, job.dataParams);

  const dataset = await env.datasets.load(job.sessionId, job.datasetKey);
  env.signal.throwIfAborted();
  const source = domain.dataSource;
  const view = typedDataset(dataset, domain.domain.schemas);
  const data: unknown = source?.prepare ? source.prepare(view, dataParams) : view;

  const report = monotoneProgress(env.progress);
  const ctx: RunContext = {
    progress: (fraction) => {
      report(fraction);
      // A synchronous loop stops at its next report once the run is cancelled.
      env.signal.throwIfAborted();
    },
    signal: env.signal,
    log: env.log,
  };
  const result: unknown = await algorithm.run(data, params, ctx);
  env.signal.throwIfAborted();
  if (result === undefined || result === null) throw new Error(`algorithm '${algorithm.name}' returned no result (${String(result)})`);
  const resultJson = JSON.stringify(result) as string | undefined;
  if (resultJson === undefined) throw new Error(`algorithm '${algorithm.name}' returned a result that is not JSON (${typeof result})`);

  let kpis: Record<string, number>;
  try {
    kpis = computeKpis(domain.kpisFor(algorithm.name), result, data);
  } catch (thrown) {
    // The algorithm did its work: its result is kept beside the KPI's failure.
    if (thrown instanceof KpiError) return { status: 'FAILED', message: thrown.message, stack: thrown.stack, code: 'KPI_ERROR', resultJson };
    throw thrown;
  }
  report(1);
  return { status: 'COMPLETE', resultJson, kpis };
}
