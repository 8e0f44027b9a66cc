import { describe, expectTypeOf, it } from 'vitest';
import { defineAlgorithm } from '../../src/domain/define.js';
import { param, validateParams, type IntervalValue, type ParamDecl, type ParamValues } from '../../src/params/index.js';

describe('ParamValues through defineAlgorithm', () => {
  it('types a parameter with a default as non-null and one without as nullable', () => {
    defineAlgorithm({
      name: 'x',
      parameters: { n: param.integer({ default: 1 }), mode: param.enum({ choices: ['a', 'b'] }) },
      run(_d, params) {
        expectTypeOf(params.n).toEqualTypeOf<number>();
        expectTypeOf(params.mode).toEqualTypeOf<'a' | 'b' | null>();
        // @ts-expect-error a number is not a string
        const s: string = params.n;
        // @ts-expect-error mode may be null: it has no default and is not required
        const m: 'a' | 'b' = params.mode;
        // @ts-expect-error 'n' and 'mode' are the only parameters
        void params.other;
        return [s, m];
      },
    });
  });

  it('infers literal declarations written without the builders', () => {
    defineAlgorithm({
      name: 'literal',
      parameters: {
        n: { kind: 'integer', min: 0 },
        f: { kind: 'float', default: 0.5 },
        e: { kind: 'enum', choices: ['x', 'y'], required: true },
        m: { kind: 'multi_enum', choices: ['p', 'q'] },
      },
      run(_d, params) {
        expectTypeOf(params.n).toEqualTypeOf<number | null>();
        expectTypeOf(params.f).toEqualTypeOf<number>();
        expectTypeOf(params.e).toEqualTypeOf<'x' | 'y'>();
        expectTypeOf(params.m).toEqualTypeOf<readonly ('p' | 'q')[] | null>();
      },
    });
  });

  it('gives each kind its value type', () => {
    defineAlgorithm({
      name: 'kinds',
      parameters: {
        i: param.integer({ required: true }),
        f: param.float({ default: 1.5 }),
        s: param.string({ default: 'x' }),
        b: param.boolean({ default: true }),
        e: param.enum({ choices: ['raise', 'throw_string'], default: 'raise' }),
        m: param.multiEnum({ choices: ['a', 'b'], default: ['a'] }),
        t: param.time({ default: '08:00' }),
        v: param.interval({ default: ['2026-01-01', '2026-02-01'] }),
        nt: param.time(),
        nv: param.interval(),
      },
      run(_d, params) {
        expectTypeOf(params.i).toEqualTypeOf<number>();
        expectTypeOf(params.f).toEqualTypeOf<number>();
        expectTypeOf(params.s).toEqualTypeOf<string>();
        expectTypeOf(params.b).toEqualTypeOf<boolean>();
        expectTypeOf(params.e).toEqualTypeOf<'raise' | 'throw_string'>();
        expectTypeOf(params.m).toEqualTypeOf<readonly ('a' | 'b')[]>();
        expectTypeOf(params.t).toEqualTypeOf<string>();
        expectTypeOf(params.v).toEqualTypeOf<IntervalValue>();
        expectTypeOf(params.nt).toEqualTypeOf<string | null>();
        expectTypeOf(params.nv).toEqualTypeOf<IntervalValue | null>();
      },
    });
  });

  it('keeps a parameter nullable when required is false', () => {
    defineAlgorithm({
      name: 'optional',
      parameters: { s: param.string({ required: false }) },
      run(_d, params) {
        expectTypeOf(params.s).toEqualTypeOf<string | null>();
      },
    });
  });

  it('rejects a literal declaration of an unknown kind or a wrongly typed default', () => {
    defineAlgorithm({
      name: 'bad',
      // @ts-expect-error 'number' is not a parameter kind
      parameters: { n: { kind: 'number' } },
      run() {},
    });
    defineAlgorithm({
      name: 'bad',
      // @ts-expect-error an integer default must be a number
      parameters: { n: { kind: 'integer', default: '3' } },
      run() {},
    });
  });
});

describe('param builders', () => {
  it('set the kind', () => {
    expectTypeOf(param.integer().kind).toEqualTypeOf<'integer'>();
    expectTypeOf(param.multiEnum({ choices: ['a'] }).kind).toEqualTypeOf<'multi_enum'>();
    expectTypeOf(param.interval().kind).toEqualTypeOf<'interval'>();
  });

  it('produce declarations assignable to ParamDecl', () => {
    expectTypeOf(param.integer({ min: 0, default: 5 })).toMatchTypeOf<ParamDecl>();
    expectTypeOf(param.enum({ choices: ['a', 'b'], default: 'a' })).toMatchTypeOf<ParamDecl>();
    expectTypeOf(param.multiEnum({ choices: ['a', 'b'] })).toMatchTypeOf<ParamDecl>();
  });

  it('keep literal option types', () => {
    const n = param.integer({ min: 0, default: 5 });
    expectTypeOf(n.default).toEqualTypeOf<5>();
    expectTypeOf(n.min).toEqualTypeOf<0>();
  });

  it('reject an enum default that is not among the choices', () => {
    // @ts-expect-error 'ignore' is not a choice
    param.enum({ choices: ['raise', 'throw_string'], default: 'ignore' });
    // @ts-expect-error 'z' is not a choice
    param.multiEnum({ choices: ['x', 'y'], default: ['x', 'z'] });
  });

  it('reject a default of the wrong type', () => {
    // @ts-expect-error an integer default must be a number
    param.integer({ default: '5' });
    // @ts-expect-error a boolean default must be a boolean
    param.boolean({ default: 'false' });
    // @ts-expect-error an interval default has two elements
    param.interval({ default: ['2026-01-01'] });
  });

  it('reject options that belong to another kind', () => {
    // @ts-expect-error strings have no bounds
    param.string({ min: 1 });
  });
});

describe('validateParams', () => {
  it('returns values typed from the declarations', () => {
    const decls = { n: param.integer({ default: 1 }), mode: param.enum({ choices: ['a', 'b'] }) };
    const values = validateParams(decls, {});
    expectTypeOf(values).toEqualTypeOf<ParamValues<typeof decls>>();
    expectTypeOf(values.n).toEqualTypeOf<number>();
    expectTypeOf(values.mode).toEqualTypeOf<'a' | 'b' | null>();
  });
});
