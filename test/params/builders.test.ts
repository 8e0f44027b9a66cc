import { describe, expect, it } from 'vitest';
import { checkDecls, param, PARAM_KINDS } from '../../src/params/index.js';

describe('param builders', () => {
  it('return their options with the kind set', () => {
    expect(param.integer({ min: 0, default: 5 })).toEqual({ kind: 'integer', min: 0, default: 5 });
    expect(param.enum({ choices: ['a', 'b'], default: 'a' })).toEqual({ kind: 'enum', choices: ['a', 'b'], default: 'a' });
    expect(param.multiEnum({ choices: ['a'] })).toEqual({ kind: 'multi_enum', choices: ['a'] });
  });

  it('need no options for kinds without required ones', () => {
    expect([param.integer(), param.float(), param.string(), param.boolean(), param.time(), param.interval()]).toEqual([
      { kind: 'integer' },
      { kind: 'float' },
      { kind: 'string' },
      { kind: 'boolean' },
      { kind: 'time' },
      { kind: 'interval' },
    ]);
  });

  it('cover every parameter kind', () => {
    const built = [
      param.integer(),
      param.float(),
      param.string(),
      param.boolean(),
      param.enum({ choices: ['a'] }),
      param.multiEnum({ choices: ['a'] }),
      param.time(),
      param.interval(),
    ];
    expect(built.map((d) => d.kind)).toEqual([...PARAM_KINDS]);
  });

  it('return frozen declarations that do not share the options object', () => {
    const options = { default: 3 };
    const decl = param.integer(options);
    expect(Object.isFrozen(decl)).toBe(true);
    expect(decl).not.toBe(options);
  });

  it('let the kind they set win over a kind smuggled into the options', () => {
    const decl = param.integer({ kind: 'string' } as object);
    expect(decl.kind).toBe('integer');
  });

  it('build declarations that pass checkDecls', () => {
    expect(() =>
      checkDecls(
        {
          a: param.integer({ min: 1, max: 3, default: 2 }),
          b: param.enum({ choices: ['x', 'y'], default: 'y', description: 'why' }),
          c: param.interval({ required: true }),
        },
        'algorithm "t"',
      ),
    ).not.toThrow();
  });
});
