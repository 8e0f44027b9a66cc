import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { etlErrorLines } from '../datasets/etl-error-lines.js';
import { DatasetFormatError } from '../domain/format-error.js';
import { runEtl } from '../datasets/etl/index.js';
import type { Dataset } from '../domain/dataset-model.js';
import type { Algorithm, AnyAlgorithm, Domain, ExternalAlgorithm, ResultOf } from '../domain/define.js';
import { DomainRegistry } from '../domain/registry.js';
import type { RunOutcome } from '../executor/run/job.js';
import { runScenario } from '../executor/run/run-scenario.js';
import type { ParamDecls, ParamValues } from '../params/kinds.js';
import { newSeed } from '../model/run-state/run-insight.js';

/** One line an algorithm logged through `ctx.log`. */
export interface LoggedLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: Record<string, unknown>;
}

/** A run that completed: its result as the service would serve it, and the KPIs that apply to it. */
export interface AlgorithmRun<R> {
  /** The result after the JSON round trip the service makes (what `GET .../scenarios/{id}` shows). */
  readonly result: R;
  /** By name, only the KPIs that apply to this algorithm; all finite. */
  readonly kpis: Readonly<Record<string, number>>;
  /** Every progress value reported, clamped and never decreasing, as the service records them. */
  readonly progress: readonly number[];
  readonly log: readonly LoggedLine[];
}

/** Why a run failed: ALGORITHM_ERROR, KPI_ERROR, or an external program's OUTPUT_LIMIT, LOG_LIMIT or MEMORY_LIMIT. */
export type FailureCode = NonNullable<Extract<RunOutcome, { status: 'FAILED' }>['code']>;

/**
 * A run that ended FAILED, as the service would record it: `code` and `message` are the scenario's
 * `error`; `result` is the algorithm's result when only a KPI failed (KPI_ERROR), else undefined.
 */
export class RunFailedError extends Error {
  override readonly name = 'RunFailedError';
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly result: unknown,
    /** The stack of what failed, as the service logs it. */
    readonly failureStack: string | undefined,
  ) {
    super(message);
  }
}

/**
 * What the run works on: a `Dataset`, the paths of files named `<group>.<ext>` (run through the ETL with
 * the domain's schemas, as an upload would be), or such files in memory by name.
 */
export type TestData = Dataset | readonly string[] | Readonly<Record<string, string | Uint8Array>>;

export interface RunAlgorithmOptions {
  /** The scenario's `data_params` (defaults for the rest). */
  readonly dataParams?: Readonly<Record<string, unknown>>;
  /** Aborts the run as a cancel would (`ctx.signal`). */
  readonly signal?: AbortSignal;
  /** The seed of `ctx.random` (default: a new one), to repeat a run exactly. */
  readonly seed?: number;
  /**
   * The directory an external algorithm's relative paths resolve against, as the domain module's directory
   * does in the service (default: the working directory): pass `fileURLToPath(new URL('.', import.meta.url))`
   * of the domain module.
   */
  readonly domainDir?: string;
}

type AlgorithmNamed<D extends Domain, N> = Extract<D['algorithms'][number], { readonly name: N }>;
type ParamsOf<Alg> = Alg extends Algorithm<infer P extends ParamDecls, infer _D, infer _R, infer _N, infer _RT>
  ? Partial<ParamValues<P>>
  : Alg extends ExternalAlgorithm<infer P extends ParamDecls, infer _R, infer _N>
    ? Partial<ParamValues<P>>
    : never;

const registries = new WeakMap<Domain, DomainRegistry>();

/**
 * Runs algorithm `name` of `domain` in this process, the way the service runs a scenario: data through the
 * schemas and the data source's `prepare`, parameters validated with defaults filled in, the algorithm,
 * then every KPI that applies to it. For a domain author's unit tests. Resolves with the result and KPIs;
 * rejects with a `RunFailedError` when the run would end FAILED (the algorithm threw or returned nothing,
 * a parameter is invalid, a KPI threw or was not a finite number), with a `DatasetFormatError` when the
 * files fail the ETL.
 */
export async function runAlgorithm<D extends Domain, const N extends D['algorithms'][number]['name']>(
  domain: D,
  name: N,
  data: TestData,
  params: ParamsOf<AlgorithmNamed<D, N>> = {} as ParamsOf<AlgorithmNamed<D, N>>,
  options: RunAlgorithmOptions = {},
): Promise<AlgorithmRun<ResultOf<AlgorithmNamed<D, N>>>> {
  let registry = registries.get(domain);
  if (!registry) registries.set(domain, (registry = new DomainRegistry(domain)));
  const algorithm: AnyAlgorithm | undefined = registry.algorithm(name);
  if (!algorithm) throw new Error(`domain '${domain.name}' has no algorithm '${name}' (its algorithms: ${registry.algorithmNames.join(', ')})`);
  const dataset = await toDataset(domain, data);
  const progress: number[] = [];
  const log: LoggedLine[] = [];
  const line = (level: LoggedLine['level']) => (message: string, fields?: Record<string, unknown>) => {
    log.push(fields === undefined ? { level, message } : { level, message, fields });
  };
  const outcome: RunOutcome = await runScenario(
    {
      scenarioId: 'test',
      sessionId: 'test',
      datasetKey: dataset.key,
      algoName: name,
      algoParams: params,
      dataParams: options.dataParams ?? {},
      deadline: Number.MAX_SAFE_INTEGER,
      seed: options.seed ?? newSeed(),
    },
    {
      domain: registry,
      datasets: { load: () => Promise.resolve(dataset) },
      progress: (fraction) => progress.push(fraction),
      signal: options.signal ?? new AbortController().signal,
      log: { info: line('info'), warn: line('warn'), error: line('error') },
      ...(options.domainDir === undefined ? {} : { domainDir: options.domainDir }),
    },
  );
  if (outcome.status === 'FAILED') {
    const result = outcome.resultJson === undefined ? undefined : (JSON.parse(outcome.resultJson) as unknown);
    throw new RunFailedError(outcome.code ?? 'ALGORITHM_ERROR', outcome.message, result, outcome.stack);
  }
  // The service records progress 1 when a run completes.
  if (progress.at(-1) !== 1) progress.push(1);
  return { result: JSON.parse(outcome.resultJson) as ResultOf<AlgorithmNamed<D, N>>, kpis: outcome.kpis, progress, log };
}

async function toDataset(domain: Domain, data: TestData): Promise<Dataset> {
  if (isDataset(data)) return data;
  const files = Array.isArray(data)
    ? await Promise.all((data as readonly string[]).map(async (path) => ({ filename: basename(path), data: await readFile(path) })))
    : Object.entries(data as Readonly<Record<string, string | Uint8Array>>).map(([filename, content]) => ({ filename, data: Buffer.from(content) }));
  const etl = await runEtl(domain.schemas, files);
  if (!etl.success) {
    throw new DatasetFormatError(`the files failed the ETL: ${etlErrorLines(etl.messages).join('; ')}`);
  }
  return { key: 'test', kind: 'master', createdAt: new Date().toISOString(), tables: etl.tables };
}

function isDataset(data: TestData): data is Dataset {
  return !Array.isArray(data) && typeof (data as { tables?: unknown }).tables === 'object' && typeof (data as { key?: unknown }).key === 'string';
}
