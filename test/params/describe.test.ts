import { describe, expect, it } from 'vitest';
import { humanised } from '../../src/params/describe.js';
import { describeParams, param, validateParams, type ParamDecls } from '../../src/params/index.js';

describe('describeParams', () => {
  it('describes nothing when nothing is declared', () => {
    expect(describeParams({})).toEqual([]);
  });

  it('lists parameters in declaration order', () => {
    const decls = { z: param.string(), a: param.boolean(), m: param.time() };
    expect(describeParams(decls).map((d) => d.name)).toEqual(['z', 'a', 'm']);
  });

  it('gives the wire type name of every kind', () => {
    const decls: ParamDecls = {
      a: param.integer(),
      b: param.float(),
      c: param.string(),
      d: param.boolean(),
      e: param.enum({ choices: ['x'] }),
      f: param.multiEnum({ choices: ['x'] }),
      g: param.time(),
      h: param.interval(),
    };
    expect(describeParams(decls).map((d) => d.type)).toEqual([
      'integer',
      'float',
      'string',
      'boolean',
      'enum',
      'multi_enum',
      'time',
      'interval',
    ]);
  });

  it('shows an integer with bounds and default exactly as the wire expects', () => {
    const decls = { iterations: param.integer({ min: 1, max: 100, default: 10, description: 'How many rounds' }) };
    expect(describeParams(decls)).toEqual([
      { name: 'iterations', type: 'integer', required: false, label: 'Iterations', value: 10, default: 10, min: 1, max: 100, description: 'How many rounds' },
    ]);
  });

  it('leaves out default, min, max, choices and description when they do not apply', () => {
    const [descriptor] = describeParams({ n: param.integer() });
    expect(descriptor).toEqual({ name: 'n', type: 'integer', required: false, label: 'N', value: null });
    expect(Object.keys(descriptor!)).toEqual(['name', 'type', 'required', 'label', 'value']);
  });

  it('gives only the bound that is declared', () => {
    const [onlyMin, onlyMax] = describeParams({ a: param.float({ min: 0 }), b: param.float({ max: 1.5 }) });
    expect(onlyMin).toEqual({ name: 'a', type: 'float', required: false, label: 'A', value: null, min: 0 });
    expect(onlyMax).toEqual({ name: 'b', type: 'float', required: false, label: 'B', value: null, max: 1.5 });
  });

  it('gives min and max only for numeric kinds, even if another kind carries them', () => {
    const odd = { s: { kind: 'string', min: 1, max: 2 } } as unknown as ParamDecls;
    expect(describeParams(odd)[0]).not.toHaveProperty('min');
    expect(describeParams(odd)[0]).not.toHaveProperty('max');
  });

  it('gives choices for enum and multi_enum only', () => {
    const decls = {
      e: param.enum({ choices: ['raise', 'throw_string'], default: 'raise' }),
      m: param.multiEnum({ choices: ['a', 'b'], default: ['b'] }),
      s: param.string({ default: 'x' }),
    };
    expect(describeParams(decls)).toEqual([
      { name: 'e', type: 'enum', required: false, label: 'E', value: 'raise', default: 'raise', choices: ['raise', 'throw_string'] },
      { name: 'm', type: 'multi_enum', required: false, label: 'M', value: ['b'], default: ['b'], choices: ['a', 'b'] },
      { name: 's', type: 'string', required: false, label: 'S', value: 'x', default: 'x' },
    ]);
  });

  it('marks required only when declared true', () => {
    const decls = { a: param.string({ required: true }), b: param.string({ required: false }), c: param.string() };
    expect(describeParams(decls).map((d) => d.required)).toEqual([true, false, false]);
  });

  it('uses the default as the value of a schema listing, or null without one', () => {
    const decls = { t: param.time({ default: '08:00' }), v: param.interval() };
    expect(describeParams(decls).map((d) => d.value)).toEqual(['08:00', null]);
  });

  it('uses the chosen values when given, keeping the default alongside', () => {
    const decls = { n: param.integer({ default: 5 }), mode: param.enum({ choices: ['a', 'b'] }) };
    const values = validateParams(decls, { n: 7, mode: 'b' });
    expect(describeParams(decls, values)).toEqual([
      { name: 'n', type: 'integer', required: false, label: 'N', value: 7, default: 5 },
      { name: 'mode', type: 'enum', required: false, label: 'Mode', value: 'b', choices: ['a', 'b'] },
    ]);
  });

  it('keeps a chosen null as null', () => {
    expect(describeParams({ s: param.string() }, { s: null })[0]!.value).toBeNull();
  });

  it('falls back to the default for a name missing from the chosen values', () => {
    const decls = { n: param.integer({ default: 5 }), added: param.boolean({ default: true }) };
    expect(describeParams(decls, { n: 1 }).map((d) => d.value)).toEqual([1, true]);
  });

  it('keeps a chosen false or 0 rather than taking them for missing', () => {
    const decls = { b: param.boolean({ default: true }), n: param.integer({ default: 5 }) };
    expect(describeParams(decls, { b: false, n: 0 }).map((d) => d.value)).toEqual([false, 0]);
  });

  it('copies arrays so editing a descriptor cannot change the declaration', () => {
    const decls = { m: param.multiEnum({ choices: ['a', 'b'], default: ['a'] }) };
    const [descriptor] = describeParams(decls);
    if (descriptor?.type !== 'multi_enum') throw new Error('expected a multi_enum descriptor');
    descriptor.choices.push('c');
    descriptor.default!.push('b');
    descriptor.value!.push('b');
    expect(decls.m.choices).toEqual(['a', 'b']);
    expect(decls.m.default).toEqual(['a']);
  });

  it('produces plain JSON', () => {
    const decls = {
      v: param.interval({ default: ['2026-01-01', '2026-02-01'] }),
      m: param.multiEnum({ choices: ['a'], required: true }),
    };
    const descriptors = describeParams(decls);
    expect(JSON.parse(JSON.stringify(descriptors))).toEqual(descriptors);
  });

  it('labels a parameter as declared, else with its name humanised', () => {
    const decls = { max_iterations: param.integer(), timeLimit: param.float(), seed: param.integer({ label: 'Random seed' }) };
    expect(describeParams(decls).map((d) => d.label)).toEqual(['Max iterations', 'Time limit', 'Random seed']);
    expect(humanised('KPI_weight')).toBe('KPI weight');
  });
});
