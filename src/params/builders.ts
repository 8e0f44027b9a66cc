import type {
  BooleanParam,
  FloatParam,
  IntegerParam,
  IntervalParam,
  StringParam,
  TimeParam,
} from './kinds.js';

/**
 * The options of a kind: its declaration without `kind`. For enums `default` is typed against the
 * choices separately (see `param.enum`), so it is left out here.
 */
type Options<P> = Omit<P, 'kind'>;
type ChoiceOptions<T> = {
  readonly label?: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly default?: T;
};

/**
 * `O & { kind: K }` flattened into one object type, so hovers and error messages show a declaration
 * rather than an intersection. Mapping over `keyof T` of a type parameter keeps `readonly` and `?`,
 * which matters: `ParamValues` tells "has a default" from "may have one" by that `?`.
 */
type Simplify<T> = { [Key in keyof T]: T[Key] } & {};
type Decl<O, K> = Simplify<O & { readonly kind: K }>;

function builder<K extends string>(kind: K) {
  // Frozen so that a declaration shared by every run cannot be edited by one of them.
  return <O extends object>(opts: O | undefined): Decl<O, K> => Object.freeze({ ...opts, kind }) as Decl<O, K>;
}

/**
 * Declaration builders. Each returns its options with `kind` set, and keeps the literal types of what
 * was passed (`const` generics): `param.integer({ default: 5 })` is known to have a default, so
 * `ParamValues` types its value as `number` rather than `number | null`, and
 * `param.enum({ choices: ['a', 'b'] })` has values of type `'a' | 'b'`. Writing the declaration as
 * a literal (`{ kind: 'integer', min: 0 }`) works just as well; the builders add a compile-time check
 * that an enum default is among its choices, and read better.
 */
export const param = {
  integer: <const O extends Options<IntegerParam> = object>(opts?: O) => builder('integer')(opts),
  float: <const O extends Options<FloatParam> = object>(opts?: O) => builder('float')(opts),
  string: <const O extends Options<StringParam> = object>(opts?: O) => builder('string')(opts),
  boolean: <const O extends Options<BooleanParam> = object>(opts?: O) => builder('boolean')(opts),
  /** `time`: `HH:MM` or `HH:MM:SS`, 24-hour clock. */
  time: <const O extends Options<TimeParam> = object>(opts?: O) => builder('time')(opts),
  /** `interval`: `[start, end]` of ISO 8601 dates or date-times, start <= end. */
  interval: <const O extends Options<IntervalParam> = object>(opts?: O) => builder('interval')(opts),
  /**
   * `enum`: one of `choices`. `C` is inferred from `choices` only (`NoInfer` on the default), so a
   * default outside the choices is a compile error instead of widening the value type.
   */
  enum: <const C extends string, const O extends ChoiceOptions<NoInfer<C>> = object>(
    opts: O & { readonly choices: readonly C[] },
  ) => builder('enum')<O & { readonly choices: readonly C[] }>(opts),
  /** `multi_enum`: an array of distinct members of `choices`; the default likewise. */
  multiEnum: <const C extends string, const O extends ChoiceOptions<readonly NoInfer<C>[]> = object>(
    opts: O & { readonly choices: readonly C[] },
  ) => builder('multi_enum')<O & { readonly choices: readonly C[] }>(opts),
};
