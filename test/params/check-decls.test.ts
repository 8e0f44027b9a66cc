import { describe, expect, it } from 'vitest';
import { checkDecls, param, ParameterError, type ParamDecls } from '../../src/params/index.js';

/** Declarations as a JavaScript domain module might write them, past the static types. */
const raw = (decls: Record<string, unknown>) => decls as unknown as ParamDecls;

function problemWith(decl: unknown): string {
  try {
    checkDecls(raw({ p: decl }), 'algorithm "solve"');
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ParameterError);
    const message = (err as Error).message;
    expect(message.startsWith(`algorithm "solve": parameter 'p': `)).toBe(true);
    return message.slice(`algorithm "solve": parameter 'p': `.length);
  }
  throw new Error(`expected ${JSON.stringify(decl)} to be rejected`);
}

describe('checkDecls', () => {
  it('accepts no parameters at all', () => {
    expect(() => checkDecls({}, 'data source')).not.toThrow();
  });

  it('accepts a sound declaration of every kind, with every option', () => {
    const decls: ParamDecls = {
      i: param.integer({ min: -1, max: 10, default: 0, required: true, description: 'i' }),
      f: param.float({ min: 0.5, max: 0.5, default: 0.5 }),
      s: param.string({ default: '' }),
      b: param.boolean({ default: false }),
      e: param.enum({ choices: ['a', 'b'], default: 'b' }),
      m: param.multiEnum({ choices: ['a', 'b'], default: [] }),
      t: param.time({ default: '23:59:59' }),
      v: param.interval({ default: ['2026-01-01', '2026-01-01T12:00+01:00'] }),
      plain: { kind: 'integer' },
    };
    expect(() => checkDecls(decls, 'algorithm "solve"')).not.toThrow();
  });

  it('accepts a required parameter that also has a default', () => {
    expect(() => checkDecls({ n: param.integer({ required: true, default: 1 }) }, 'x')).not.toThrow();
  });

  it('names the owner and the parameter in its message', () => {
    expect(() => checkDecls(raw({ n: { kind: 'number' } }), 'data source')).toThrow(/^data source: parameter 'n': unknown kind "number"/);
  });

  it('rejects parameters that are not an object of declarations', () => {
    expect(() => checkDecls(raw([] as unknown as Record<string, unknown>), 'algorithm "a"')).toThrow(
      'algorithm "a": parameters must be an object mapping names to declarations',
    );
    expect(() => checkDecls(null as unknown as ParamDecls, 'algorithm "a"')).toThrow(/parameters must be an object/);
  });

  it('rejects an empty parameter name', () => {
    expect(() => checkDecls(raw({ '': { kind: 'integer' } }), 'x')).toThrow(/parameter name must not be empty/);
  });

  it.each([null, 'integer', 3, [{ kind: 'integer' }]])('rejects the declaration %j, which is not an object', (decl) => {
    expect(problemWith(decl)).toBe('the declaration must be an object');
  });

  it.each([undefined, 'number', 'int', 'Integer', 'multiEnum', 7])('rejects the unknown kind %j and lists the known ones', (kind) => {
    expect(problemWith({ kind })).toMatch(/^unknown kind .* \(known: integer, float, string, boolean, enum, multi_enum, time, interval\)$/);
  });

  it('rejects a misspelt option rather than ignoring it', () => {
    expect(problemWith({ kind: 'integer', defualt: 3 })).toBe(
      "unknown property 'defualt' for kind integer (allowed: kind, label, description, required, default, min, max)",
    );
  });

  it('rejects bounds on a kind that has none', () => {
    expect(problemWith({ kind: 'string', min: 1 })).toMatch(/^unknown property 'min' for kind string/);
  });

  it('rejects choices on a kind that has none', () => {
    expect(problemWith({ kind: 'integer', choices: ['a'] })).toMatch(/^unknown property 'choices' for kind integer/);
  });

  it('rejects a description that is not a string', () => {
    expect(problemWith({ kind: 'string', description: 3 })).toBe('description must be a string');
  });

  it('rejects a required flag that is not a boolean', () => {
    expect(problemWith({ kind: 'string', required: 'yes' })).toBe('required must be true or false');
  });

  describe.each(['integer', 'float'])('%s bounds', (kind) => {
    it('reject min greater than max', () => {
      expect(problemWith({ kind, min: 5, max: 4 })).toBe('min (5) is greater than max (4)');
    });

    it('accept min equal to max', () => {
      expect(() => checkDecls(raw({ p: { kind, min: 4, max: 4 } }), 'x')).not.toThrow();
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', null])('reject the non-finite or non-number bound %s', (bound) => {
      expect(problemWith({ kind, min: bound })).toMatch(/^min must be a finite number/);
      expect(problemWith({ kind, max: bound })).toMatch(/^max must be a finite number/);
    });
  });

  it('rejects a fractional bound on an integer parameter', () => {
    expect(problemWith({ kind: 'integer', min: 0.5 })).toBe('min of an integer parameter must be a (safe) integer, got 0.5');
    expect(problemWith({ kind: 'integer', max: 1e300 })).toMatch(/^max of an integer parameter must be a \(safe\) integer/);
  });

  it('accepts a fractional bound on a float parameter', () => {
    expect(() => checkDecls(raw({ p: { kind: 'float', min: 0.5, max: 1.5 } }), 'x')).not.toThrow();
  });

  describe.each(['enum', 'multi_enum'])('%s choices', (kind) => {
    it('are required', () => {
      expect(problemWith({ kind })).toBe('choices must be a non-empty array of strings');
    });

    it('must not be empty', () => {
      expect(problemWith({ kind, choices: [] })).toBe('choices must be a non-empty array of strings');
    });

    it('must be an array', () => {
      expect(problemWith({ kind, choices: 'a,b' })).toBe('choices must be a non-empty array of strings');
    });

    it('must be strings', () => {
      expect(problemWith({ kind, choices: ['a', 1] })).toBe('choices must be strings, got 1');
    });

    it('must not repeat', () => {
      expect(problemWith({ kind, choices: ['a', 'b', 'a'] })).toBe('choice "a" is listed more than once');
    });
  });

  it.each([
    [{ kind: 'integer', default: 1.5 }, 'default must be an integer, got 1.5'],
    [{ kind: 'integer', min: 1, default: 0 }, 'default must be >= 1, got 0'],
    [{ kind: 'integer', max: 1, default: 2 }, 'default must be <= 1, got 2'],
    [{ kind: 'integer', default: '3' }, 'default must be an integer, got "3"'],
    [{ kind: 'float', default: Number.NaN }, 'default must be a finite number, got NaN'],
    [{ kind: 'float', max: 1, default: 1.01 }, 'default must be <= 1, got 1.01'],
    [{ kind: 'string', default: 5 }, 'default must be a string, got 5'],
    [{ kind: 'boolean', default: 'false' }, 'default must be true or false, got "false"'],
    [{ kind: 'enum', choices: ['a'], default: 'b' }, 'default must be one of "a", got "b"'],
    [{ kind: 'multi_enum', choices: ['a'], default: 'a' }, 'default must be an array of distinct values among "a", got "a"'],
    [{ kind: 'multi_enum', choices: ['a'], default: ['a', 'a'] }, 'default "a" appears more than once, got ["a","a"]'],
    [{ kind: 'time', default: '24:00' }, 'default must be a time of day HH:MM or HH:MM:SS (24-hour clock), got "24:00"'],
    [{ kind: 'interval', default: ['2026-02-30', '2026-03-01'] }, 'default start "2026-02-30" is not a valid ISO 8601 date or date-time, got ["2026-02-30","2026-03-01"]'],
    [{ kind: 'interval', default: ['2026-03-01', '2026-02-01'] }, 'default start must not be after end, got ["2026-03-01","2026-02-01"]'],
    [{ kind: 'string', default: null }, 'default must not be null (leave it out to have no default)'],
  ])('rejects a default that fails its own declaration: %j', (decl, problem) => {
    expect(problemWith(decl)).toBe(problem);
  });

  it('reports bounds before checking the default against them', () => {
    expect(problemWith({ kind: 'integer', min: 5, max: 1, default: 3 })).toBe('min (5) is greater than max (1)');
  });

  it('accepts a declaration that says its default is undefined, as if there were none', () => {
    expect(() => checkDecls(raw({ p: { kind: 'integer', default: undefined } }), 'x')).not.toThrow();
  });

  it('reports the first faulty parameter in declaration order', () => {
    expect(() => checkDecls(raw({ ok: { kind: 'string' }, bad1: { kind: 'x' }, bad2: { kind: 'y' } }), 'x')).toThrow(
      /parameter 'bad1'/,
    );
  });
});
