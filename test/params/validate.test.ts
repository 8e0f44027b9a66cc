import { describe, expect, it } from 'vitest';
import { ParameterError, param, validateParams, type ParamDecls } from '../../src/params/index.js';

/** Runs `validateParams` for a single parameter `p` and returns its value. */
function valueOf(decl: ParamDecls[string], value: unknown): unknown {
  return validateParams({ p: decl }, { p: value }).p;
}

/** The ParameterError thrown for a single parameter `p` given `value`. */
function errorFor(decl: ParamDecls[string], value: unknown): ParameterError {
  try {
    validateParams({ p: decl }, { p: value });
  } catch (err) {
    expect(err).toBeInstanceOf(ParameterError);
    return err as ParameterError;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

function expectRejected(decl: ParamDecls[string], value: unknown, message?: string | RegExp): void {
  const err = errorFor(decl, value);
  expect(err.parameter).toBe('p');
  expect(err.name).toBe('ParameterError');
  expect(err.message).toMatch(/^parameter 'p': /);
  if (message !== undefined) expect(err.message).toMatch(message);
}

/** One value of every JSON type (plus an object) to feed each kind the types it must refuse. */
const JSON_VALUES: Record<string, unknown> = {
  string: 'abc',
  number: 1.5,
  integer: 3,
  boolean: true,
  array: ['a'],
  object: { a: 1 },
};

describe('the values object', () => {
  const decls = { a: param.integer({ default: 1 }), b: param.string() };

  it('uses every default when the input is undefined', () => {
    expect(validateParams(decls, undefined)).toEqual({ a: 1, b: null });
  });

  it('uses every default when the input is null', () => {
    expect(validateParams(decls, null)).toEqual({ a: 1, b: null });
  });

  it('uses every default when the input is an empty object', () => {
    expect(validateParams(decls, {})).toEqual({ a: 1, b: null });
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'a=1'],
    ['a number', 42],
    ['a boolean', true],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
  ])('is rejected when it is %s instead of a plain object', (_label, input) => {
    expect(() => validateParams(decls, input)).toThrow(ParameterError);
    expect(() => validateParams(decls, input)).toThrow(/parameter values must be a JSON object/);
  });

  it('names no parameter when the values as a whole are not an object', () => {
    try {
      validateParams(decls, []);
      expect.unreachable();
    } catch (err) {
      expect((err as ParameterError).parameter).toBe('');
    }
  });

  it('accepts an object without a prototype', () => {
    const input = Object.assign(Object.create(null) as Record<string, unknown>, { a: 7 });
    expect(validateParams(decls, input)).toEqual({ a: 7, b: null });
  });

  it('rejects an unknown name and lists the known ones', () => {
    expect(() => validateParams(decls, { a: 1, foo: 2 })).toThrow("unknown parameter 'foo' (known: a, b)");
  });

  it('reports the unknown name as the offending parameter', () => {
    try {
      validateParams(decls, { foo: 2 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ParameterError);
      expect((err as ParameterError).parameter).toBe('foo');
    }
  });

  it('rejects any name when nothing is declared', () => {
    expect(() => validateParams({}, { x: 1 })).toThrow("unknown parameter 'x' (known: none)");
  });

  it('accepts no values when nothing is declared', () => {
    expect(validateParams({}, {})).toEqual({});
    expect(validateParams({}, undefined)).toEqual({});
  });

  it('does not take inherited names such as toString or __proto__ for declared ones', () => {
    expect(() => validateParams(decls, { toString: 1 })).toThrow("unknown parameter 'toString'");
    expect(() => validateParams(decls, JSON.parse('{"__proto__": 1}'))).toThrow("unknown parameter '__proto__'");
  });

  it('keeps a parameter declared as __proto__ as a plain key of the result', () => {
    const protoDecls = JSON.parse('{"__proto__": {"kind": "integer"}}') as ParamDecls;
    const result = validateParams(protoDecls, JSON.parse('{"__proto__": 5}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(JSON.stringify(result)).toBe('{"__proto__":5}');
  });

  it('lists every declared name in declaration order whatever the input order', () => {
    const ordered = { z: param.integer(), a: param.string({ default: 's' }), m: param.boolean() };
    expect(Object.keys(validateParams(ordered, { m: true, z: 1 }))).toEqual(['z', 'a', 'm']);
  });

  it('gives null for a parameter with neither a value nor a default', () => {
    expect(validateParams({ x: param.float() }, {})).toEqual({ x: null });
  });

  it('treats an explicit null as "use the default"', () => {
    expect(validateParams(decls, { a: null, b: null })).toEqual({ a: 1, b: null });
  });

  it('treats an undefined property as not given', () => {
    expect(validateParams(decls, { a: undefined })).toEqual({ a: 1, b: null });
  });

  it('produces a JSON-serialisable result that survives a round trip', () => {
    const all = {
      i: param.integer({ default: 1 }),
      f: param.float({ default: 0.5 }),
      s: param.string({ default: 'x' }),
      b: param.boolean({ default: false }),
      e: param.enum({ choices: ['a', 'b'], default: 'a' }),
      m: param.multiEnum({ choices: ['a', 'b'], default: ['b'] }),
      t: param.time({ default: '08:30' }),
      v: param.interval({ default: ['2026-01-01', '2026-01-31'] }),
      n: param.string(),
    };
    const result = validateParams(all, undefined);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(result).toEqual({
      i: 1,
      f: 0.5,
      s: 'x',
      b: false,
      e: 'a',
      m: ['b'],
      t: '08:30',
      v: ['2026-01-01', '2026-01-31'],
      n: null,
    });
  });
});

describe('required parameters', () => {
  it('are rejected when neither a value nor a default is present', () => {
    expect(() => validateParams({ iterations: param.integer({ required: true }) }, {})).toThrow(
      "parameter 'iterations': is required and has no default",
    );
  });

  it('are rejected when the whole input is missing', () => {
    expect(() => validateParams({ iterations: param.integer({ required: true }) }, undefined)).toThrow(ParameterError);
  });

  it('are rejected when given an explicit null and no default', () => {
    expect(() => validateParams({ iterations: param.integer({ required: true }) }, { iterations: null })).toThrow(
      /is required/,
    );
  });

  it('take their default when one is declared', () => {
    expect(validateParams({ n: param.integer({ required: true, default: 3 }) }, {})).toEqual({ n: 3 });
  });

  it('take the value given', () => {
    expect(validateParams({ n: param.integer({ required: true }) }, { n: 4 })).toEqual({ n: 4 });
  });

  it('name the missing parameter in the error', () => {
    try {
      validateParams({ a: param.string(), b: param.string({ required: true }) }, { a: 'x' });
      expect.unreachable();
    } catch (err) {
      expect((err as ParameterError).parameter).toBe('b');
    }
  });
});

describe('integer', () => {
  it.each([0, 1, -1, 42, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e3])('accepts %s', (value) => {
    expect(valueOf({ kind: 'integer' }, value)).toBe(value);
  });

  it('accepts a float-looking JSON number that is integral, such as 2.0', () => {
    expect(valueOf({ kind: 'integer' }, JSON.parse('2.0'))).toBe(2);
  });

  it.each([1.5, -0.1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects the number %s', (value) => {
    expectRejected({ kind: 'integer' }, value, /must be an integer/);
  });

  it.each([Number.MAX_SAFE_INTEGER + 1, Number.MIN_SAFE_INTEGER - 1, 1e20])('rejects the unsafe integer %s', (value) => {
    expectRejected({ kind: 'integer' }, value, /must be between/);
  });

  it.each([
    ['a numeric string', '1'],
    ['a string', 'abc'],
    ['a boolean', true],
    ['an array', [1]],
    ['an object', { value: 1 }],
  ])('rejects %s', (_label, value) => {
    expectRejected({ kind: 'integer' }, value, /must be an integer/);
  });

  it('shows the received value as JSON in the message', () => {
    expect(errorFor({ kind: 'integer' }, 'abc').message).toBe(`parameter 'p': must be an integer, got "abc"`);
  });

  it('accepts its min and max themselves', () => {
    const decl = param.integer({ min: 1, max: 10 });
    expect(valueOf(decl, 1)).toBe(1);
    expect(valueOf(decl, 10)).toBe(10);
  });

  it('rejects a value just below min', () => {
    expect(errorFor(param.integer({ min: 1 }), 0).message).toBe(`parameter 'p': must be >= 1, got 0`);
  });

  it('rejects a value just above max', () => {
    expect(errorFor(param.integer({ max: 10 }), 11).message).toBe(`parameter 'p': must be <= 10, got 11`);
  });

  it('accepts negative bounds and the single value when min equals max', () => {
    expect(valueOf(param.integer({ min: -5, max: -5 }), -5)).toBe(-5);
    expectRejected(param.integer({ min: -5, max: -5 }), -4, /<= -5/);
    expectRejected(param.integer({ min: -5, max: -5 }), -6, />= -5/);
  });

  it('names the parameter in a realistic message', () => {
    const decls = { iterations: param.integer({ min: 1 }) };
    expect(() => validateParams(decls, { iterations: 0 })).toThrow("parameter 'iterations': must be >= 1, got 0");
    expect(() => validateParams(decls, { iterations: 'abc' })).toThrow(`parameter 'iterations': must be an integer, got "abc"`);
  });
});

describe('float', () => {
  it.each([0, -0.5, 1.5, 3, 1e-300, Number.MAX_VALUE])('accepts %s', (value) => {
    expect(valueOf({ kind: 'float' }, value)).toBe(value);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects the non-finite number %s', (value) => {
    expect(errorFor({ kind: 'float' }, value).message).toBe(`parameter 'p': must be a finite number, got ${value}`);
  });

  it.each([
    ['a numeric string', '1.5'],
    ['a string', 'abc'],
    ['a boolean', false],
    ['an array', [1.5]],
    ['an object', { value: 1.5 }],
  ])('rejects %s', (_label, value) => {
    expectRejected({ kind: 'float' }, value, /must be a finite number/);
  });

  it('accepts its min and max themselves', () => {
    const decl = param.float({ min: 0.5, max: 2.5 });
    expect(valueOf(decl, 0.5)).toBe(0.5);
    expect(valueOf(decl, 2.5)).toBe(2.5);
  });

  it('rejects a value just below min', () => {
    expectRejected(param.float({ min: 0.5 }), 0.49, 'must be >= 0.5, got 0.49');
  });

  it('rejects a value just above max', () => {
    expectRejected(param.float({ max: 2.5 }), 2.51, 'must be <= 2.5, got 2.51');
  });
});

describe('string', () => {
  it.each(['', 'hello', 'ünïcødé ✓', '1', 'null'])('accepts %j', (value) => {
    expect(valueOf({ kind: 'string' }, value)).toBe(value);
  });

  it.each([
    ['a number', 1],
    ['a boolean', true],
    ['an array', ['a']],
    ['an object', { a: 'b' }],
  ])('rejects %s', (_label, value) => {
    expectRejected({ kind: 'string' }, value, /must be a string/);
  });
});

describe('boolean', () => {
  it.each([true, false])('accepts %s', (value) => {
    expect(valueOf({ kind: 'boolean' }, value)).toBe(value);
  });

  it.each([
    ['the string "false"', 'false'],
    ['the string "true"', 'true'],
    ['the number 0', 0],
    ['the number 1', 1],
    ['an array', [true]],
    ['an object', { value: true }],
  ])('does not coerce %s', (_label, value) => {
    expectRejected({ kind: 'boolean' }, value, /must be true or false/);
  });

  it('keeps an explicit false rather than replacing it with the default', () => {
    expect(valueOf(param.boolean({ default: true }), false)).toBe(false);
  });
});

describe('enum', () => {
  const decl = param.enum({ choices: ['raise', 'throw_string'] });

  it.each(['raise', 'throw_string'])('accepts the choice %s', (value) => {
    expect(valueOf(decl, value)).toBe(value);
  });

  it('rejects a string that is not a choice and lists the choices', () => {
    expect(errorFor(decl, 'ignore').message).toBe(`parameter 'p': must be one of "raise", "throw_string", got "ignore"`);
  });

  it('compares choices case-sensitively', () => {
    expectRejected(decl, 'RAISE');
  });

  it.each([
    ['a number', 1],
    ['a boolean', true],
    ['an array holding a choice', ['raise']],
    ['an object', { value: 'raise' }],
  ])('rejects %s', (_label, value) => {
    expectRejected(decl, value, /must be one of/);
  });
});

describe('multi_enum', () => {
  const decl = param.multiEnum({ choices: ['a', 'b', 'c'] });

  it('accepts distinct members in any order', () => {
    expect(valueOf(decl, ['c', 'a'])).toEqual(['c', 'a']);
  });

  it('accepts an empty array', () => {
    expect(valueOf(decl, [])).toEqual([]);
  });

  it('accepts every choice at once', () => {
    expect(valueOf(decl, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it('rejects a member that is not a choice', () => {
    expect(errorFor(decl, ['a', 'z']).message).toBe(`parameter 'p': "z" is not one of "a", "b", "c", got ["a","z"]`);
  });

  it('rejects a repeated member', () => {
    expectRejected(decl, ['a', 'b', 'a'], /"a" appears more than once/);
  });

  it('rejects a non-string member', () => {
    expectRejected(decl, ['a', 1], /1 is not one of/);
    expectRejected(decl, [null], /null is not one of/);
  });

  it.each([
    ['a single choice as a string', 'a'],
    ['a number', 1],
    ['a boolean', true],
    ['an object', { 0: 'a' }],
  ])('rejects %s instead of an array', (_label, value) => {
    expectRejected(decl, value, /must be an array of distinct values among "a", "b", "c"/);
  });

  it('returns a copy, not the array it was given', () => {
    const given = ['a'];
    const result = valueOf(decl, given);
    expect(result).toEqual(given);
    expect(result).not.toBe(given);
  });
});

describe('time', () => {
  it.each(['00:00', '07:00', '12:30', '23:59', '00:00:00', '23:59:59', '09:05:07'])('accepts %s', (value) => {
    expect(valueOf({ kind: 'time' }, value)).toBe(value);
  });

  it.each([
    ['24:00', 'hour 24'],
    ['24:00:00', 'hour 24 with seconds'],
    ['7:00', 'a one-digit hour'],
    ['07:60', 'minute 60'],
    ['07:5', 'a one-digit minute'],
    ['23:59:60', 'a leap second'],
    ['12:00:5', 'one-digit seconds'],
    ['12:00:00.5', 'fractional seconds'],
    ['12', 'an hour alone'],
    ['1200', 'no separator'],
    ['12:00Z', 'a zone'],
    [' 12:00', 'leading space'],
    ['12:00\n', 'a trailing newline'],
    ['12h00', 'another separator'],
    ['', 'the empty string'],
    ['٠٧:٠٠', 'non-ASCII digits'],
  ])('rejects %j (%s)', (value) => {
    expectRejected({ kind: 'time' }, value, /must be a time of day HH:MM or HH:MM:SS/);
  });

  it.each([
    ['a number', 700],
    ['a boolean', true],
    ['an array', ['07:00']],
    ['an object', { h: 7, m: 0 }],
  ])('rejects %s', (_label, value) => {
    expectRejected({ kind: 'time' }, value, /must be a time of day/);
  });
});

describe('interval', () => {
  const decl = param.interval();

  it.each([
    [['2026-01-01', '2026-12-31']],
    [['2026-01-01', '2026-01-01']],
    [['2024-02-29', '2024-03-01']],
    [['2000-02-29', '2000-02-29']],
    [['2026-01-01T08:00', '2026-01-01T17:30']],
    [['2026-01-01T08:00:00', '2026-01-01T08:00:01']],
    [['2026-01-01T08:00:00.1', '2026-01-01T08:00:00.25']],
    [['2026-01-01T08:00:00.123Z', '2026-01-01T08:00:00.124Z']],
    [['2026-01-01T08:00:00.123456789Z', '2026-01-01T08:00:00.12345679Z']],
    [['2026-01-01T08:00:00+02:00', '2026-01-01T07:00:00Z']],
    [['2026-01-01T00:00-05:30', '2026-01-02']],
    [['0001-01-01', '9999-12-31T23:59:59.999Z']],
  ])('accepts %j', (value) => {
    expect(valueOf(decl, value)).toEqual(value);
  });

  it('accepts a date and a date-time mixed, comparing the date as its midnight UTC', () => {
    expect(valueOf(decl, ['2026-01-01', '2026-01-01T00:00Z'])).toEqual(['2026-01-01', '2026-01-01T00:00Z']);
    expectRejected(decl, ['2026-01-01T00:00:00.001Z', '2026-01-01'], /start must not be after end/);
  });

  it('compares date-times as instants, so an offset can make a later-looking start earlier', () => {
    // 10:00+05:00 is 05:00Z, which is before 06:00Z.
    expect(valueOf(decl, ['2026-01-01T10:00+05:00', '2026-01-01T06:00Z'])).toHaveLength(2);
    // 06:00-05:00 is 11:00Z, which is after 10:00Z.
    expectRejected(decl, ['2026-01-01T06:00-05:00', '2026-01-01T10:00Z'], /start must not be after end/);
  });

  it('counts a date-time without offset as UTC', () => {
    expect(valueOf(decl, ['2026-01-01T12:00', '2026-01-01T12:00Z'])).toHaveLength(2);
    expect(valueOf(decl, ['2026-01-01T12:00Z', '2026-01-01T12:00'])).toHaveLength(2);
    expectRejected(decl, ['2026-01-01T12:00', '2026-01-01T12:00+00:01'], /start must not be after end/);
  });

  it('rejects a start after its end', () => {
    expect(errorFor(decl, ['2026-02-01', '2026-01-01']).message).toBe(
      `parameter 'p': start must not be after end, got ["2026-02-01","2026-01-01"]`,
    );
  });

  it('rejects a start after its end by a fraction of a millisecond', () => {
    expectRejected(decl, ['2026-01-01T00:00:00.0000002Z', '2026-01-01T00:00:00.0000001Z'], /start must not be after end/);
  });

  it.each([
    ['2026-02-30', 'February 30'],
    ['2026-02-29', 'February 29 of a common year'],
    ['1900-02-29', 'February 29 of a century year not divisible by 400'],
    ['2026-04-31', 'April 31'],
    ['2026-13-01', 'month 13'],
    ['2026-00-10', 'month 0'],
    ['2026-01-00', 'day 0'],
    ['2026-01-32', 'day 32'],
    ['2026-1-01', 'a one-digit month'],
    ['26-01-01', 'a two-digit year'],
    ['20260101', 'the basic format'],
    ['2026-01-01T24:00', 'hour 24'],
    ['2026-01-01T12:60', 'minute 60'],
    ['2026-01-01T12:00:60', 'second 60'],
    ['2026-01-01T12', 'an hour without minutes'],
    ['2026-01-01 12:00', 'a space instead of T'],
    ['2026-01-01t12:00', 'a lower-case t'],
    ['2026-01-01T12:00z', 'a lower-case z'],
    ['2026-01-01T12:00.5', 'a fraction without seconds'],
    ['2026-01-01T12:00:00.', 'an empty fraction'],
    ['2026-01-01T12:00:00.1234567890', 'more than nine fraction digits'],
    ['2026-01-01T12:00+0200', 'an offset without colon'],
    ['2026-01-01T12:00+02', 'an hour-only offset'],
    ['2026-01-01T12:00+24:00', 'an offset of 24 hours'],
    ['2026-01-01T12:00+02:60', 'an offset minute of 60'],
    ['2026-01-01Z', 'a date with a zone'],
    ['2026-W01', 'a week date'],
    ['January 1, 2026', 'prose'],
    ['', 'the empty string'],
  ])('rejects the start %j (%s)', (start) => {
    expectRejected(decl, [start, '2027-01-01'], /start .* is not a valid ISO 8601 date or date-time/);
  });

  it('rejects an invalid calendar date as the end', () => {
    expect(errorFor(decl, ['2026-01-01', '2026-02-30']).message).toBe(
      `parameter 'p': end "2026-02-30" is not a valid ISO 8601 date or date-time, got ["2026-01-01","2026-02-30"]`,
    );
  });

  it.each([
    ['an empty array', []],
    ['a one-element array', ['2026-01-01']],
    ['a three-element array', ['2026-01-01', '2026-01-02', '2026-01-03']],
  ])('rejects %s', (_label, value) => {
    expectRejected(decl, value, /must be a two-element array \[start, end\]/);
  });

  it.each([
    ['a string', '2026-01-01/2026-02-01'],
    ['a number', 20260101],
    ['a boolean', true],
    ['an object', { start: '2026-01-01', end: '2026-02-01' }],
  ])('rejects %s instead of an array', (_label, value) => {
    expectRejected(decl, value, /must be a two-element array/);
  });

  it.each([
    ['a number', [20260101, '2026-02-01']],
    ['null', [null, '2026-02-01']],
    ['an array', [['2026-01-01'], '2026-02-01']],
  ])('rejects %s as an element', (_label, value) => {
    expectRejected(decl, value, /start .* is not a valid ISO 8601 date or date-time/);
  });

  it('returns the two strings as given, as a fresh two-element array', () => {
    const given = ['2026-01-01T00:00+01:00', '2026-01-01'];
    const result = valueOf(decl, given);
    expect(result).toEqual(given);
    expect(result).not.toBe(given);
  });
});

describe('every kind', () => {
  const kinds: ParamDecls = {
    integer: param.integer(),
    float: param.float(),
    string: param.string(),
    boolean: param.boolean(),
    enum: param.enum({ choices: ['a'] }),
    multi_enum: param.multiEnum({ choices: ['a'] }),
    time: param.time(),
    interval: param.interval(),
  };
  /** The JSON types each kind accepts; every other type in JSON_VALUES must be refused. */
  const accepted: Record<string, string[]> = {
    integer: ['integer'],
    float: ['number', 'integer'],
    string: ['string'],
    boolean: ['boolean'],
    enum: [],
    multi_enum: ['array'], // ['a'] is a valid selection
    time: [],
    interval: [],
  };
  const cases = Object.keys(kinds).flatMap((kind) =>
    Object.keys(JSON_VALUES)
      .filter((type) => !accepted[kind]!.includes(type))
      .map((type) => [kind, type] as const),
  );

  it.each(cases)('%s rejects a JSON %s value of the wrong kind and names the parameter', (kind, type) => {
    expect(() => validateParams({ [kind]: kinds[kind]! }, { [kind]: JSON_VALUES[type] })).toThrow(
      new RegExp(`^parameter '${kind}': .*, got `),
    );
  });

  it.each(Object.keys(kinds))('%s treats an explicit null as "use the default"', (kind) => {
    expect(validateParams({ [kind]: kinds[kind]! }, { [kind]: null })).toEqual({ [kind]: null });
  });

  it.each(Object.keys(kinds))('%s returns its declared default when no value is given', (kind) => {
    const defaults: Record<string, unknown> = {
      integer: 2,
      float: 2.5,
      string: 's',
      boolean: false,
      enum: 'a',
      multi_enum: ['a'],
      time: '12:00',
      interval: ['2026-01-01', '2026-01-02'],
    };
    const decl = { ...kinds[kind]!, default: defaults[kind] } as ParamDecls[string];
    expect(validateParams({ x: decl }, {})).toEqual({ x: defaults[kind] });
    expect(validateParams({ x: decl }, { x: null })).toEqual({ x: defaults[kind] });
  });
});

describe('defaults', () => {
  it('are handed out as copies so one run cannot change what the next one gets', () => {
    const decls = { tags: param.multiEnum({ choices: ['a', 'b'], default: ['a'] }) };
    const first = validateParams(decls, {}).tags as string[];
    first.push('b');
    expect(validateParams(decls, {}).tags).toEqual(['a']);
  });

  it('are not used when a value is given', () => {
    expect(validateParams({ n: param.integer({ default: 5 }) }, { n: 0 })).toEqual({ n: 0 });
  });
});

describe('every invalid parameter at once', () => {
  it('lists each unknown name, failing value and missing required parameter in errors', () => {
    const decls = { n: param.integer({ min: 1 }), s: param.string({ required: true }), f: param.float({ max: 1 }) };
    let error: ParameterError | undefined;
    try {
      validateParams(decls, { n: 0, f: 2, typo: 1 });
    } catch (err) {
      error = err as ParameterError;
    }
    expect(error).toBeInstanceOf(ParameterError);
    expect(error!.errors.map((e) => e.path)).toEqual(['typo', 'n', 's', 'f']);
    for (const e of error!.errors) expect(error!.message).toContain(e.message);
  });
});
