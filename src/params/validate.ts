import { checkValue } from './check-value.js';
import { copied } from './copy.js';
import { ParameterError, shown } from './errors.js';
import type { ParamDecls, ParamValues } from './kinds.js';

/**
 * Turns client-supplied parameter values into the values an algorithm (or data source) receives.
 *
 * `input` is the request's JSON: undefined or null means "all defaults". Every declared name is in the
 * result, in declaration order: the checked value, else the default, else null. An explicit JSON null
 * counts as "not given", so a client can ask for the default without knowing it. Throws a
 * `ParameterError` listing every unknown name, value that fails its declaration, and required
 * parameter left without a value, so a client fixes them all in one go.
 */
export function validateParams<D extends ParamDecls>(decls: D, input: unknown): ParamValues<D> {
  const given = input === undefined || input === null ? {} : asPlainObject(input);
  const known = Object.keys(decls);
  const errors: ParameterError[] = [];
  for (const name of Object.keys(given)) {
    // Own properties only: `toString` or `__proto__` must not pass as declared names.
    if (!Object.hasOwn(decls, name)) errors.push(ParameterError.unknown(name, known));
  }
  const entries = known.map((name): [string, unknown] => {
    const decl = decls[name]!;
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value !== undefined && value !== null) return [name, collected(errors, () => checkValue(name, decl, value))];
    if (decl.default !== undefined) return [name, copied(decl.default)];
    if (decl.required === true) errors.push(ParameterError.invalid(name, 'is required and has no default'));
    return [name, null];
  });
  if (errors.length > 0) throw ParameterError.all(errors);
  // fromEntries defines properties, so even a parameter named `__proto__` lands as a plain key.
  return Object.fromEntries(entries) as ParamValues<D>;
}

/** The checked value, or undefined with its ParameterError kept for the combined error. */
function collected(errors: ParameterError[], check: () => unknown, under?: string): unknown {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ParameterError)) throw err;
    errors.push(under === undefined ? err : err.under(under));
    return undefined;
  }
}

function asPlainObject(input: unknown): Record<string, unknown> {
  const proto: unknown = typeof input === 'object' && input !== null ? Object.getPrototypeOf(input) : undefined;
  if (Array.isArray(input) || (proto !== Object.prototype && proto !== null)) {
    const got = Array.isArray(input) ? 'an array' : typeof input === 'object' ? 'a non-plain object' : shown(input);
    throw new ParameterError('', `parameter values must be a JSON object mapping names to values, got ${got}`);
  }
  return input as Record<string, unknown>;
}

/**
 * A scenario's algorithm and data parameter values, every invalid one of both reported at once, each
 * under the request field it came from (`algo_params.iterations`, `data_params.horizon`).
 */
export function validateScenarioParams<A extends ParamDecls, D extends ParamDecls>(
  algoDecls: A,
  algoInput: unknown,
  dataDecls: D,
  dataInput: unknown,
): [ParamValues<A>, ParamValues<D>] {
  const errors: ParameterError[] = [];
  const algo = collected(errors, () => validateParams(algoDecls, algoInput), 'algo_params') as ParamValues<A>;
  const data = collected(errors, () => validateParams(dataDecls, dataInput), 'data_params') as ParamValues<D>;
  if (errors.length > 0) throw ParameterError.all(errors);
  return [algo, data];
}
