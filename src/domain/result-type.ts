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
  /** Never set: makes `ResultType<A>` and `ResultType<B>` different types unless A and B are the same. */
  readonly __result?: (result: R) => R;
}

/** A result type whose TypeScript type is the schema's (`Static<typeof schema>`). */
export function defineResultType<S extends TSchema>(name: string, schema: S): ResultType<Static<S>>;
/** A result type of the TypeScript type `R`, checked against `schema` at run time when one is given. */
export function defineResultType<R>(name: string, schema?: TSchema): ResultType<R>;
export function defineResultType(name: string, schema?: TSchema): ResultType<unknown> {
  return Object.freeze(schema === undefined ? { name } : { name, schema });
}
