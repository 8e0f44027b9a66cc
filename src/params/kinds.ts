/** The eight parameter kinds: their declarations and the TypeScript type of a value of each. */

export const PARAM_KINDS = ['integer', 'float', 'string', 'boolean', 'enum', 'multi_enum', 'time', 'interval'] as const;
export type ParamKind = (typeof PARAM_KINDS)[number];

interface Common<T> {
  /** What a form shows for the parameter (e.g. `Time limit`); the humanised name when absent. */
  readonly label?: string;
  readonly description?: string;
  /** A required parameter must end up with a value: from the request or from `default`. */
  readonly required?: boolean;
  readonly default?: T;
}

export interface IntegerParam extends Common<number> {
  readonly kind: 'integer';
  readonly min?: number;
  readonly max?: number;
}
export interface FloatParam extends Common<number> {
  readonly kind: 'float';
  readonly min?: number;
  readonly max?: number;
}
export interface StringParam extends Common<string> {
  readonly kind: 'string';
}
export interface BooleanParam extends Common<boolean> {
  readonly kind: 'boolean';
}
export interface EnumParam<C extends string = string> extends Common<C> {
  readonly kind: 'enum';
  readonly choices: readonly C[];
}
export interface MultiEnumParam<C extends string = string> extends Common<readonly C[]> {
  readonly kind: 'multi_enum';
  readonly choices: readonly C[];
}
/** `HH:MM` or `HH:MM:SS`, 24-hour clock. */
export interface TimeParam extends Common<string> {
  readonly kind: 'time';
}
/** `[start, end]`: ISO 8601 dates or date-times with start <= end. */
export type IntervalValue = readonly [string, string];
export interface IntervalParam extends Common<IntervalValue> {
  readonly kind: 'interval';
}

export type ParamDecl =
  | IntegerParam
  | FloatParam
  | StringParam
  | BooleanParam
  | EnumParam
  | MultiEnumParam
  | TimeParam
  | IntervalParam;

/** An ordered record of parameter declarations, keyed by parameter name. */
export type ParamDecls = Readonly<Record<string, ParamDecl>>;

type ValueOf<P extends ParamDecl> = P extends IntegerParam | FloatParam
  ? number
  : P extends StringParam | TimeParam
    ? string
    : P extends BooleanParam
      ? boolean
      : P extends EnumParam<infer C>
        ? C
        : P extends MultiEnumParam<infer C>
          ? readonly C[]
          : P extends IntervalParam
            ? IntervalValue
            : never;

/** A parameter always has a value when it declares a default or is required (validation enforces it). */
type AlwaysSet<P> = P extends { readonly default: unknown } ? true : P extends { readonly required: true } ? true : false;

/** The validated values an algorithm receives, typed from its declarations. */
export type ParamValues<D extends ParamDecls> = {
  readonly [K in keyof D]: AlwaysSet<D[K]> extends true ? ValueOf<D[K]> : ValueOf<D[K]> | null;
};
