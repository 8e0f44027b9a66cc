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
 * `ParameterError` naming the parameter for an unknown name, a value that fails its declaration, or
 * a required parameter left without a value.
 */
export function validateParams<D extends ParamDecls>(decls: D, input: unknown): ParamValues<D> {
  const given = input === undefined || input === null ? {} : asPlainObject(input);
  const known = Object.keys(decls);
  for (const name of Object.keys(given)) {
    // Own properties only: `toString` or `__proto__` must not pass as declared names.
    if (!Object.hasOwn(decls, name)) throw ParameterError.unknown(name, known);
  }
  const entries = known.map((name): [string, unknown] => {
    const decl = decls[name]!;
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value !== undefined && value !== null) return [name, checkValue(name, decl, value)];
    if (decl.default !== undefined) return [name, copied(decl.default)];
    if (decl.required === true) throw ParameterError.invalid(name, 'is required and has no default');
    return [name, null];
  });
  // fromEntries defines properties, so even a parameter named `__proto__` lands as a plain key.
  return Object.fromEntries(entries) as ParamValues<D>;
}

function asPlainObject(input: unknown): Record<string, unknown> {
  const proto: unknown = typeof input === 'object' && input !== null ? Object.getPrototypeOf(input) : undefined;
  if (Array.isArray(input) || (proto !== Object.prototype && proto !== null)) {
    const got = Array.isArray(input) ? 'an array' : typeof input === 'object' ? 'a non-plain object' : shown(input);
    throw new ParameterError('', `parameter values must be a JSON object mapping names to values, got ${got}`);
  }
  return input as Record<string, unknown>;
}
