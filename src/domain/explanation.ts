import type { Schemas } from './dataset-schema.js';
import type { CellOf, TableName, TableSpecOf } from './typed-tables.js';
import type { Severity } from '../model/explanation/severity.js';

/**
 * Why a plan is what it is (docs/api/explanations.md): the values of the terms that add up to each KPI,
 * and the constraints the plan breaks, each naming the data rows it concerns. An algorithm gives one
 * with `ctx.explain` (TypeScript) or the `$explanation` member of its output (external programs); the
 * run checks it like the result and stores it beside it.
 */

export { SEVERITIES, type Severity } from '../model/explanation/severity.js';

/**
 * One row of the run's dataset: its table, and the value of the table's primary-key column (the row's
 * 0-based position for a table whose schema declares no single primary key).
 */
export interface RowRef {
  readonly table: string;
  readonly key: string | number;
}

/** A constraint the plan breaks. */
export interface Violation<Row extends RowRef = RowRef> {
  /** Which rule (`capacity`, `max-weight`): violations of one constraint are grouped by it. */
  readonly constraint: string;
  readonly severity: Severity;
  /** By how much, or its penalty: a finite number, in the constraint's own unit. */
  readonly amount: number;
  /** The data rows it concerns (none for a rule about the whole plan). */
  readonly rows: readonly Row[];
  /** One sentence for the planner. */
  readonly message: string;
}

/** What an algorithm may say about its result. Every member is optional. */
export interface Explanation<Row extends RowRef = RowRef> {
  /** Per KPI (by name, one that declares `terms`), each term's value: `{ 'Travel Distance': { A: 120.5, B: 80 } }`. */
  readonly terms?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly violations?: readonly Violation<Row>[];
  /**
   * The algorithm found no plan that keeps every hard constraint. A run with a hard violation is
   * infeasible whether or not this says so; a solver that proves infeasibility without naming a cause
   * sets it alone.
   */
  readonly infeasible?: boolean;
}

/** The primary-key column of a table spec, or never when it declares none. */
type KeyColumnOf<T> = T extends { readonly columns: infer C } ? { [K in keyof C]: C[K] extends { readonly primaryKey: true } ? K : never }[keyof C] : never;

/** The type of a row's key in table `T` of schemas `S`: its primary key's cell type, else a row position. */
export type RowKeyOf<S extends Schemas, T extends string> = [KeyColumnOf<TableSpecOf<S, T>>] extends [never]
  ? number
  : TableSpecOf<S, T> extends { readonly columns: infer C }
    ? C[KeyColumnOf<TableSpecOf<S, T>> & keyof C] extends infer Spec
      ? Spec extends { readonly type: 'string' | 'integer' | 'float' | 'boolean' | 'datetime' }
        ? Exclude<CellOf<Spec>, null | boolean>
        : never
      : never
    : never;

/** A row reference checked against schemas `S`: a table they declare, and a key of that table's key type. */
export type SchemaRowRef<S extends Schemas> = { [T in TableName<S>]: { readonly table: T; readonly key: RowKeyOf<S, T> } }[TableName<S>];

/** What `defineExplanations(schemas)` gives: builders whose row references the compiler checks. */
export interface ExplanationKit<S extends Schemas> {
  /** A reference to one row of table `table`; a table the schemas lack, or a key of another type, is a compile error. */
  row<T extends TableName<S>>(table: T, key: RowKeyOf<S, T>): SchemaRowRef<S>;
  /** A violation whose rows are checked against the schemas. */
  violation(violation: Violation<SchemaRowRef<S>>): Violation;
  /** An explanation whose rows are checked against the schemas (what `ctx.explain` takes). */
  explanation(explanation: Explanation<SchemaRowRef<S>>): Explanation;
}

/**
 * Builders for explanations of a domain with schemas `S`: row references name a table of the schemas and
 * a key of its primary key's type, so a misspelt table or a number where the key is a string does not
 * compile. At run time a reference is still checked against the dataset: a row it does not hold fails
 * the run, naming the path.
 */
export function defineExplanations<const S extends Schemas>(_schemas: S): ExplanationKit<S> {
  return Object.freeze({
    row: <T extends TableName<S>>(table: T, key: RowKeyOf<S, T>) => ({ table, key }),
    violation: (violation: Violation<SchemaRowRef<S>>): Violation => violation,
    explanation: (explanation: Explanation<SchemaRowRef<S>>): Explanation => explanation,
  });
}

/** How a KPI's terms are declared (`defineKpi({ ..., terms })`). */
export interface KpiTerms<R = unknown, TData = unknown> {
  /** What a term is, in a word (`zone`, `category`): how clients title the terms. */
  readonly by: string;
  /**
   * How far the terms' sum may be from the KPI's value, relative to the larger of |value| and the sum of
   * |term|s, before the explanation says they do not add up (the residual is shown either way). Default 1e-9.
   */
  readonly tolerance?: number;
  /**
   * The terms' values of a result, computed by the service for every algorithm whose explanation gives
   * none for this KPI. Without it only algorithms that give the terms explain this KPI.
   */
  readonly compute?: (result: R, data: TData) => Readonly<Record<string, number>>;
}

/** The tolerance of terms that state none. */
export const DEFAULT_TERMS_TOLERANCE = 1e-9;

/** Declares a KPI's terms (a typed identity: `compute`'s `result` and `data` are the KPI's). */
export function defineTerms<R = unknown, TData = unknown>(terms: KpiTerms<R, TData>): KpiTerms<R, TData> {
  return Object.freeze({ ...terms });
}
