import { describe, expect, it } from 'vitest';
import { collectValues, fieldOfServerError, initialFormValue, toApiValue } from '../src/params/form-values.ts';
import { ALL_KINDS } from './fixtures.ts';

const byName = (name: string) => ALL_KINDS.find((d) => d.name === name)!;

describe('parameter form values', () => {
  it('starts every kind from its current value or default', () => {
    expect(ALL_KINDS.map((d) => initialFormValue(d))).toEqual(['10', '0.5', 'x', true, 'fast', ['A'], '08:00', ['', '']]);
  });

  it('turns the defaults into the JSON values the API takes', () => {
    const { values, errors } = collectValues(ALL_KINDS, {});
    expect(errors).toEqual({});
    expect(values).toEqual({ count: 10, rate: 0.5, label: 'x', flag: true, mode: 'fast', zones: ['A'], start: '08:00', window: null });
  });

  it('reads numbers, checks their bounds, and refuses text that is no number', () => {
    expect(toApiValue(byName('count'), '100')).toEqual({ ok: true, value: 100 });
    expect(toApiValue(byName('count'), '1000')).toEqual({ ok: false, error: 'must be at most 100' });
    expect(toApiValue(byName('count'), '0')).toEqual({ ok: false, error: 'must be at least 1' });
    expect(toApiValue(byName('count'), '1.5')).toEqual({ ok: false, error: 'must be a whole number' });
    expect(toApiValue(byName('rate'), 'abc')).toEqual({ ok: false, error: '"abc" is not a number' });
    expect(toApiValue(byName('rate'), '')).toEqual({ ok: true, value: null });
    expect(toApiValue(byName('count'), '')).toEqual({ ok: false, error: 'enter a number' });
  });

  it('sends an interval as [start, end] and an empty optional one as null', () => {
    expect(toApiValue(byName('window'), [' 2026-01-01', '2026-01-31 '])).toEqual({ ok: true, value: ['2026-01-01', '2026-01-31'] });
    expect(toApiValue(byName('window'), ['', ''])).toEqual({ ok: true, value: null });
  });

  it('places server errors at their field by path, every invalid parameter at once', () => {
    expect(
      fieldOfServerError([
        { path: 'algo_params.iterations', message: 'must be >= 1, got 0' },
        { path: 'data_params.foo', message: "unknown parameter 'foo' (known: a, b)" },
      ]),
    ).toEqual({ iterations: 'must be >= 1, got 0', foo: "unknown parameter 'foo' (known: a, b)" });
    expect(fieldOfServerError([{ path: 'tag', message: 'must NOT have fewer than 1 characters' }])).toEqual({
      tag: 'must NOT have fewer than 1 characters',
    });
  });
});
