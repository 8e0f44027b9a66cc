/**
 * A parameter value that fails its declaration. The HTTP layer answers it with `400 { detail }`, so the
 * message is written for the client and always names the offending parameter.
 */
/** How many errors the message of several names; `errors` lists them all. */
const NAMED_IN_MESSAGE = 5;

export class ParameterError extends Error {
  override readonly name = 'ParameterError';

  /**
   * @param parameter the offending parameter name ('' when the values as a whole are wrong)
   * @param message the full client-facing message; use `invalid`/`unknown` to get the usual wording
   */
  constructor(
    readonly parameter: string,
    message: string,
    /** Every offending parameter (path = its name, '' for the values as a whole) with what is wrong. */
    readonly errors: readonly { readonly path: string; readonly message: string }[] = [{ path: parameter, message }],
  ) {
    super(message);
  }

  /** One error for several: the client sees every invalid parameter at once. */
  static all(errors: readonly ParameterError[]): ParameterError {
    if (errors.length === 1) return errors[0]!;
    const list = errors.flatMap((e) => e.errors);
    // The sentence names the first few (a body of 100,000 unknown parameters must not answer megabytes); `errors` has the rest.
    const named = errors.slice(0, NAMED_IN_MESSAGE).map((e) => e.message).join('; ');
    const more = errors.length > NAMED_IN_MESSAGE ? `; and ${errors.length - NAMED_IN_MESSAGE} more (see errors)` : '';
    return new ParameterError(errors[0]!.parameter, `${named}${more}`, list);
  }

  /** The same errors with each path under `prefix` (`algo_params.iterations`). */
  under(prefix: string): ParameterError {
    return new ParameterError(this.parameter, this.message, this.errors.map((e) => ({ ...e, path: e.path === '' ? prefix : `${prefix}.${e.path}` })));
  }

  /** `parameter 'iterations': must be >= 1, got 0` */
  static invalid(parameter: string, problem: string): ParameterError {
    // The field's own message needs no name: `errors` places it at its path.
    return new ParameterError(parameter, `parameter '${parameter}': ${problem}`, [{ path: parameter, message: problem }]);
  }

  /** `unknown parameter 'foo' (known: a, b)`: listing the known names lets the client fix a typo. */
  static unknown(parameter: string, known: readonly string[]): ParameterError {
    const list = known.length === 0 ? 'none' : known.join(', ');
    return new ParameterError(parameter, `unknown parameter '${parameter}' (known: ${list})`);
  }
}

const MAX_SHOWN = 60;

/**
 * How a received value appears after "got" in a message: as JSON, so `"1"` and `1` read differently,
 * and cut short so a huge payload does not end up echoed in the response and the log.
 */
export function shown(value: unknown): string {
  if (typeof value === 'number') return String(value); // JSON would print NaN and Infinity as null
  if (value === undefined || typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    return typeof value;
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = Array.isArray(value) ? 'array' : typeof value; // a cycle: never from JSON, but do not crash
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}
