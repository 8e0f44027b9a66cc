import type { Cell, Dataset } from '../datasets/model.js';
import type { Schemas } from '../datasets/schema.js';
import type { ParamDecls, ParamValues } from '../params/kinds.js';
import type { RunContext } from './run-context.js';

export type { RunContext, RunLogger, RunRandom, RunReport } from './run-context.js';

export interface Algorithm<P extends ParamDecls = ParamDecls, TData = Dataset, R = unknown> {
  readonly name: string;
  readonly description?: string;
  /**
   * Labels clients can filter on, listed by `GET .../algorithms` (e.g. `diagnostic` for algorithms that
   * test the service rather than solve anything, which a user interface may hide).
   */
  readonly tags?: readonly string[];
  readonly parameters: P;
  /** This algorithm's run time limit in ms, instead of the `run_time_limit` setting. */
  readonly timeLimitMs?: number;
  run(data: TData, params: ParamValues<P>, ctx: RunContext): R | Promise<R>;
  /**
   * A tabular view of a result, for `GET .../scenarios/{id}/result?format=csv`. Rows may be produced
   * lazily (a generator), so a large result is streamed rather than copied.
   */
  resultTable?(result: NoInfer<R>): ResultTable;
}

/** Named columns and rows of cells (`rows[i][j]` is the value of `columns[j]`). */
export interface ResultTable {
  readonly columns: readonly string[];
  readonly rows: Iterable<readonly Cell[]>;
}

/**
 * Declares an algorithm. `params` is typed from `parameters`; annotate `data` to receive the data
 * source's prepared view (the plain `Dataset` by default).
 */
export function defineAlgorithm<const P extends ParamDecls, TData = Dataset, R = unknown>(
  algorithm: Algorithm<P, TData, R>,
): Algorithm<P, TData, R> {
  return Object.freeze({ ...algorithm });
}

export const BETTER_WHEN = ['HIGHER', 'LOWER', 'AT_LEAST', 'AT_MOST'] as const;
export type BetterWhen = (typeof BETTER_WHEN)[number];

export interface Kpi<R = unknown, TData = Dataset> {
  readonly name: string;
  readonly unit: string;
  readonly betterWhen: BetterWhen;
  readonly threshold?: number | null;
  readonly description?: string;
  /** Computed after a run completes; a throw or a non-finite number makes the run FAILED. */
  compute(result: R, data: TData): number;
}

export function defineKpi<R = unknown, TData = Dataset>(kpi: Kpi<R, TData>): Kpi<R, TData> {
  return Object.freeze({ ...kpi });
}

/** How a domain turns stored datasets into its own JSON form, derived copies and algorithm input. */
export interface DataSource<DP extends ParamDecls = ParamDecls, TData = unknown> {
  /** The data parameters a scenario may override with `data_params`. */
  readonly parameters?: DP;
  /** The dataset's JSON form (default: the codec described in docs/api/contract.md). */
  encode?(dataset: Dataset): unknown;
  /** Parses a JSON form back; throw a `DatasetFormatError` for a shape it rejects. */
  decode?(json: unknown): Dataset;
  /** The dataset stored under `newKey` by derive (default: an independent copy marked `derived`). */
  derive?(dataset: Dataset, newKey: string): Dataset;
  /** What algorithms and KPIs receive as `data` (default: the dataset itself). */
  prepare?(dataset: Dataset, params: ParamValues<DP>): TData;
}

export function defineDataSource<const DP extends ParamDecls, TData = Dataset>(
  source: DataSource<DP, TData>,
): DataSource<DP, TData> {
  return Object.freeze({ ...source });
}

/** The dataset seeded into the auto-created `main` session: ETL of these files under `datasetKey`. */
export interface DomainSeed {
  readonly datasetKey: string;
  /** Absolute paths of files named `<group>.<ext>`. */
  readonly files: readonly string[];
}

// The registries hold algorithms and KPIs of any parameter, data and result types; the executor
// calls them with values it validated against those same declarations.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyAlgorithm = Algorithm<any, any, any>;
export type AnyKpi = Kpi<any, any>;
export type AnyDataSource = DataSource<any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface Domain {
  readonly name: string;
  readonly schemas: Schemas;
  readonly algorithms: readonly AnyAlgorithm[];
  readonly kpis: readonly AnyKpi[];
  readonly dataSource?: AnyDataSource;
  readonly seed?: DomainSeed;
}

export function defineDomain(domain: Domain): Domain {
  return Object.freeze({ ...domain });
}
