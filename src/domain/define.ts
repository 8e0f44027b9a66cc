import type { AlgorithmDeclaration } from './algorithm-declaration.js';
import type { Cell, Dataset } from './dataset-model.js';
import type { Schemas } from './dataset-schema.js';
import type { ParamDecls, ParamValues } from '../params/kinds.js';
import type { AnyDataset, DatasetOf } from './typed-tables.js';
import type { RunContext } from './run-context.js';
import type { AnyView, ComparisonView, DatasetView, ResultView } from './views.js';
import type { ExternalAlgorithm } from './external-algorithm.js';
import type { ResultType } from './result-type.js';
import type { KpiTerms } from './explanation.js';

export { defineResultType, type ResultKeys, type ResultType, type ResultTypeOptions } from './result-type.js';
export { defineExternalAlgorithm, type ExternalAlgorithm, type ExternalCommand } from './external-algorithm.js';
export { defineExplanations, defineTerms, type Explanation, type ExplanationKit, type KpiTerms, type RowRef, type Severity, type Violation } from './explanation.js';

export type { PreviousPlan, RunContext, RunLogger, RunRandom, RunReport } from './run-context.js';

/**
 * `P` parameters, `TData` the data it takes, `R` what it returns, `N` its name, `RT` the result type it
 * declares (`R` is that type or a subtype of it).
 */
export interface Algorithm<P extends ParamDecls = ParamDecls, TData = unknown, R = unknown, N extends string = string, RT = R>
  extends AlgorithmDeclaration<P, N> {
  /** The result type `run` returns, for KPIs declared `appliesTo` it. */
  readonly result?: ResultType<RT>;
  // A function property, not a method: the compiler then checks `data` strictly (contravariantly), so a
  // `prepare` output an algorithm cannot take is a compile error in `defineDomain`.
  readonly run: (data: TData, params: ParamValues<P>, ctx: RunContext<RT>) => R | Promise<R>;
  /**
   * @deprecated Declare a result view of kind `table` (`defineResultView`) instead: the result export
   * uses the first table view of the result, and this table only for an algorithm that has none.
   */
  resultTable?(result: NoInfer<R>): ResultTable;
}

/** Named columns and rows of cells (`rows[i][j]` is the value of `columns[j]`). */
export interface ResultTable {
  readonly columns: readonly string[];
  readonly rows: Iterable<readonly Cell[]>;
}

/**
 * Declares an algorithm. `params` is typed from `parameters`; annotate `data` with what it receives
 * (`DatasetOf<typeof schemas>`, or the data source's `prepare` output) and the return type, or give
 * `result: someResultType` to check the return type against it.
 */
export function defineAlgorithm<const P extends ParamDecls, TData = unknown, RT = unknown, R extends RT = RT, const N extends string = string>(
  algorithm: Algorithm<P, TData, R, N, RT>,
): Algorithm<P, TData, R, N, RT> {
  return Object.freeze({ ...algorithm });
}

export const BETTER_WHEN = ['HIGHER', 'LOWER', 'AT_LEAST', 'AT_MOST'] as const;
export type BetterWhen = (typeof BETTER_WHEN)[number];

// The registries hold algorithms and KPIs of any parameter, data and result types; the executor
// calls them with values it validated against those same declarations.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyExternalAlgorithm = ExternalAlgorithm<any, any, string>;
export type AnyAlgorithm = Algorithm<any, any, any, string, any> | AnyExternalAlgorithm;
export type AnyKpi = Kpi<any, any>;
export type AnyDataSource = DataSource<any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** What algorithm `A` returns (resolved, not the promise). */
export type ResultOf<A> = A extends Algorithm<infer _P, infer _D, infer R, infer _N, infer _RT> ? R : A extends ExternalAlgorithm<infer _P, infer R, infer _N> ? R : never;
/** What algorithm `A` declares it takes as `data`. */
export type DataOf<A> = A extends Algorithm<infer _P, infer D, infer _R, infer _N, infer _RT> ? D : A extends AnyExternalAlgorithm ? unknown : never;

/** `A & B & ...` of a tuple's element types (a plain array gives its element type). */
type IntersectAll<T extends readonly unknown[]> = T extends readonly [infer Head, ...infer Rest] ? Head & IntersectAll<Rest> : T extends readonly [] ? unknown : T[number];
type DataOfEach<A extends readonly AnyAlgorithm[]> = { readonly [I in keyof A]: DataOf<A[I]> };

/** Which algorithms a KPI measures: a list of them, or every algorithm returning a result type. */
export type KpiScope<R = unknown> = readonly AnyAlgorithm[] | ResultType<R>;

interface KpiFields {
  readonly name: string;
  readonly unit: string;
  readonly betterWhen: BetterWhen;
  readonly threshold?: number | null;
  readonly description?: string;
}

export interface Kpi<R = unknown, TData = unknown> extends KpiFields {
  /**
   * The algorithms whose results this KPI measures: a list of algorithms, or a `ResultType` (every
   * algorithm declaring it). A scenario of any other algorithm simply has no value for this KPI. Without
   * it the KPI applies to every algorithm of the domain.
   */
  readonly appliesTo?: KpiScope<R>;
  /**
   * Computed after a run returns; a throw or a non-finite number makes the run FAILED (code
   * KPI_ERROR) with its result kept. A function property, so `result` and `data` are checked strictly.
   */
  readonly compute: (result: R, data: TData) => number;
  /**
   * The terms whose values add up to this KPI (docs/api/explanations.md): Travel Distance by zone. An
   * algorithm's explanation may give their values; else `terms.compute` does, when declared.
   */
  readonly terms?: KpiTerms<R, TData>;
}

/**
 * Declares a KPI. With `appliesTo: [algorithms]`, `result` is typed as what they return and `data` as
 * what they take; with `appliesTo: resultType`, `result` is that type.
 */
export function defineKpi<const A extends readonly AnyAlgorithm[]>(
  kpi: KpiFields & {
    readonly appliesTo: A;
    readonly compute: (result: ResultOf<A[number]>, data: IntersectAll<DataOfEach<A>>) => number;
    readonly terms?: KpiTerms<ResultOf<A[number]>, IntersectAll<DataOfEach<A>>>;
  },
): Kpi<ResultOf<A[number]>, IntersectAll<DataOfEach<A>>>;
export function defineKpi<R, TData = unknown>(
  kpi: KpiFields & { readonly appliesTo: ResultType<R>; readonly compute: (result: R, data: TData) => number; readonly terms?: KpiTerms<R, TData> },
): Kpi<R, TData>;
export function defineKpi<R = unknown, TData = unknown>(
  kpi: KpiFields & { readonly appliesTo?: undefined; readonly compute: (result: R, data: TData) => number; readonly terms?: KpiTerms<R, TData> },
): Kpi<R, TData>;
export function defineKpi(kpi: AnyKpi): AnyKpi {
  return Object.freeze({ ...kpi });
}

/** The type of `prepare` output of a data source that has none: algorithms then get the dataset itself. */
export interface Unprepared {
  readonly __unprepared: true;
}

/** How a domain turns stored datasets into its own JSON form, derived copies and algorithm input. */
export interface DataSource<DP extends ParamDecls = ParamDecls, TData = Unprepared, TIn = AnyDataset> {
  /** The data parameters a scenario may override with `data_params`. */
  readonly parameters?: DP;
  /** The dataset's JSON form (default: the codec described in docs/api/contract.md). */
  encode?(dataset: Dataset): unknown;
  /** Parses a JSON form back; throw a `DatasetFormatError` (naming the table) for a shape it rejects. */
  decode?(json: unknown): Dataset;
  /** The dataset stored under `newKey` by derive (default: an independent copy marked `derived`). */
  derive?(dataset: Dataset, newKey: string): Dataset;
  /**
   * What algorithms and KPIs receive as `data` (default: the dataset itself, read through the schemas).
   * `dataset` is the stored dataset read through the schemas: annotate it `DatasetOf<typeof schemas>`.
   */
  readonly prepare?: (dataset: TIn, params: ParamValues<DP>) => TData;
}

export function defineDataSource<const DP extends ParamDecls, TData = Unprepared, TIn = AnyDataset>(
  source: DataSource<DP, TData, TIn>,
): DataSource<DP, TData, TIn> {
  return Object.freeze({ ...source });
}

/** What a domain's algorithms and KPIs receive as `data`: the `prepare` output, else the typed dataset. */
export type DomainData<S extends Schemas, DS> =
  DS extends DataSource<infer _DP, infer T, infer _In>
    ? 0 extends 1 & T
      ? any // eslint-disable-line @typescript-eslint/no-explicit-any -- a data source that failed its own check: that error is the one to show
      : [T] extends [Unprepared]
        ? DatasetOf<S>
        : T
    : DatasetOf<S>;

/** The dataset seeded into the auto-created `main` session: ETL of these files under `datasetKey`. */
export interface DomainSeed {
  readonly datasetKey: string;
  /** Absolute paths of files named `<group>.<ext>`. */
  readonly files: readonly string[];
}


/** Declares the schemas, keeping their literal types so `DatasetOf<typeof schemas>` knows every table and column. */
export function defineSchemas<const S extends Schemas>(schemas: S): S {
  return schemas;
}

export interface Domain<S extends Schemas = Schemas, A extends readonly AnyAlgorithm[] = readonly AnyAlgorithm[]> {
  readonly name: string;
  readonly schemas: S;
  readonly algorithms: A;
  readonly kpis: readonly AnyKpi[];
  /** Dataset, result and comparison views, in the order clients list them. */
  readonly views?: readonly AnyView[];
  readonly dataSource?: AnyDataSource;
  readonly seed?: DomainSeed;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** Every result type the algorithms of `A` declare (an algorithm declaring none adds nothing). */
type ResultTypesOf<A extends readonly AnyAlgorithm[]> = DeclaredResultType<A[number]>;
type DeclaredResultType<Alg> = Alg extends Algorithm<any, any, any, any, infer RT>
  ? unknown extends RT
    ? never
    : ResultType<RT>
  : Alg extends ExternalAlgorithm<any, infer R, any>
    ? ResultType<R>
    : never;

/** True for an algorithm of `Alg` whose result a KPI over `R` can take. */
type Returns<Alg, R> = Alg extends AnyAlgorithm ? ([ResultOf<Alg>] extends [R] ? true : false) : never;

/** The compile error of a KPI over a result no algorithm of the domain returns. */
export interface NoAlgorithmReturnsThisKpisResult<R> {
  readonly 'error: no algorithm of this domain returns the result this KPI measures': R;
}
/** The compile error of a KPI listing an algorithm the domain does not have. */
export interface KpiAlgorithmNotInDomain<Alg> {
  readonly 'error: this KPI applies to an algorithm that is not in the domain': Alg;
}

/** `unknown` (no constraint) when the KPI measures a result some algorithm returns, else an error type. */
type KpiCheck<K, A extends readonly AnyAlgorithm[]> = K extends { readonly appliesTo: readonly AnyAlgorithm[] }
  ? [K['appliesTo'][number]] extends [A[number]]
    ? unknown
    : KpiAlgorithmNotInDomain<K['appliesTo'][number]>
  : K extends { readonly appliesTo: ResultType<infer R> }
    ? [ResultType<R>] extends [ResultTypesOf<A>]
      ? unknown
      : NoAlgorithmReturnsThisKpisResult<R>
    : K extends Kpi<infer R, any>
      ? true extends Returns<A[number], R>
        ? unknown
        : NoAlgorithmReturnsThisKpisResult<R>
      : unknown;

/** The compile error of a view over a result no algorithm of the domain returns. */
export interface NoAlgorithmReturnsThisViewsResult<R> {
  readonly 'error: no algorithm of this domain returns the result this view draws': R;
}
/** The compile error of a view listing an algorithm the domain does not have. */
export interface ViewAlgorithmNotInDomain<Alg> {
  readonly 'error: this view applies to an algorithm that is not in the domain': Alg;
}

/** As `KpiCheck`, for views: a dataset view always fits; a result or comparison view must draw a returned result. */
type ViewCheck<V, A extends readonly AnyAlgorithm[]> = V extends { readonly scope: 'dataset' }
  ? unknown
  : V extends { readonly appliesTo: readonly AnyAlgorithm[] }
    ? [V['appliesTo'][number]] extends [A[number]]
      ? unknown
      : ViewAlgorithmNotInDomain<V['appliesTo'][number]>
    : V extends { readonly appliesTo: ResultType<infer R> }
      ? [ResultType<R>] extends [ResultTypesOf<A>]
        ? unknown
        : NoAlgorithmReturnsThisViewsResult<R>
      : V extends ResultView<infer R, any, any>
        ? true extends Returns<A[number], R>
          ? unknown
          : NoAlgorithmReturnsThisViewsResult<R>
        : unknown;

/** A view of this domain: a dataset view over its typed dataset, or a view over its data (`DomainData`). */
type DomainView<S extends Schemas, TData> = DatasetView<DatasetOf<S>, any> | ResultView<any, TData, any> | ComparisonView<any, TData, any>;

/**
 * Declares the domain, checking it as a whole: every algorithm and KPI must take the domain's data (the
 * data source's `prepare` output, else `DatasetOf<typeof schemas>`), `prepare` must take the dataset,
 * every KPI must measure a result some algorithm returns, and so must every result and comparison view.
 */
export function defineDomain<
  const S extends Schemas,
  DS extends DataSource<any, any, DatasetOf<S>> = DataSource<Record<string, never>, Unprepared, AnyDataset>,
  const A extends readonly (Algorithm<any, DomainData<S, DS>, any, any, any> | ExternalAlgorithm<any, any, any>)[] = readonly [],
  const K extends readonly Kpi<any, DomainData<S, DS>>[] = readonly [],
  const V extends readonly DomainView<S, DomainData<S, DS>>[] = readonly [],
>(domain: {
  readonly name: string;
  readonly schemas: S;
  readonly algorithms: A;
  readonly kpis: K & NoInfer<{ readonly [I in keyof K]: KpiCheck<K[I], A> }>;
  readonly views?: V & NoInfer<{ readonly [I in keyof V]: ViewCheck<V[I], A> }>;
  readonly dataSource?: DS;
  readonly seed?: DomainSeed;
}): Domain<S, A> {
  return Object.freeze({ ...domain });
}
/* eslint-enable @typescript-eslint/no-explicit-any */
