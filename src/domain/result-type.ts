import type { Static, TSchema } from '@sinclair/typebox';

/**
 * A named result type, declared once and shared: algorithms that return it say `result: slotting`,
 * and a KPI that measures it says `appliesTo: slotting` (then it applies to exactly those algorithms).
 * The type parameter exists for the compiler; at run time it is the name and, when given, a schema.
 */
export interface ResultType<R> {
  readonly name: string;
  /**
   * The shape every result of this type must have (a TypeBox schema, `Type` from 'scenarist'): checked
   * when a run returns, so KPIs and views never meet another shape. Required for external algorithms,
   * whose output the compiler never sees.
   */
  readonly schema?: TSchema;
  /**
   * Result tables that have a key: a member of the result holding an array of row objects, and the
   * members of each row that identify it (`{ assignments: ['sku'] }`). Compare then lists the rows a
   * scenario's result adds, removes and changes against the baseline's, and `plan_churn` measures the
   * same against the published plan (docs/api/cycles.md).
   */
  readonly keys?: ResultKeys<R>;
  /** Never set: makes `ResultType<A>` and `ResultType<B>` different types unless A and B are the same. */
  readonly __result?: (result: R) => R;
}

/** The members of `R` that hold arrays of row objects: the result tables a key may be declared for. */
export type ResultTableName<R> = { [K in keyof R]-?: NonNullable<R[K]> extends readonly (infer Row)[] ? (Row extends object ? K : never) : never }[keyof R] & string;

/** The row of result table `K` of `R`. */
type RowOf<R, K extends keyof R> = NonNullable<R[K]> extends readonly (infer Row)[] ? Row : never;

/** Per result table, the members of its rows that together identify a row (at least one). */
export type ResultKeys<R> = { readonly [K in ResultTableName<R>]?: readonly [keyof RowOf<R, K> & string, ...(keyof RowOf<R, K> & string)[]] };

/** What `defineResultType` takes besides the name and schema. */
export interface ResultTypeOptions<R> {
  /** The key of each result table that has one (see `ResultType.keys`). */
  readonly keys?: ResultKeys<R>;
}

/** A result type whose TypeScript type is the schema's (`Static<typeof schema>`). */
export function defineResultType<S extends TSchema>(name: string, schema: S, options?: ResultTypeOptions<Static<S>>): ResultType<Static<S>>;
/** A result type of the TypeScript type `R`, checked against `schema` at run time when one is given. */
export function defineResultType<R>(name: string, schema?: TSchema, options?: ResultTypeOptions<R>): ResultType<R>;
export function defineResultType(name: string, schema?: TSchema, options?: ResultTypeOptions<unknown>): ResultType<unknown> {
  const keys = options?.keys === undefined ? undefined : Object.freeze(Object.fromEntries(Object.entries(options.keys).map(([table, key]) => [table, Object.freeze([...(key as string[])])])));
  return Object.freeze({ name, ...(schema === undefined ? {} : { schema }), ...(keys === undefined ? {} : { keys }) });
}

/** The keyed result tables of a result type, as plain data (none for an algorithm without a result type or keys). */
export function resultKeysOf(type: ResultType<unknown> | undefined): Readonly<Record<string, readonly string[]>> {
  return type?.keys ?? {};
}
