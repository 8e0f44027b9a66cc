import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { defineResultType } from '../../src/domain/define.js';
import { resultTextFits } from '../../src/executor/run/result-text-check.js';

/** The check of a result as text, member by member and element by element, against the whole parse. */

const rows = defineResultType(
  'rows',
  Type.Object({ rows: Type.Array(Type.Tuple([Type.String(), Type.Number()]), { minItems: 1 }), note: Type.Optional(Type.String()) }, { additionalProperties: false }),
);
const open = defineResultType('open', Type.Object({ total: Type.Number(), tags: Type.Array(Type.String(), { uniqueItems: true }) }));

describe('resultTextFits', () => {
  it('accepts a result of the type, whatever its whitespace and the escapes in its strings', () => {
    expect(resultTextFits(rows, '{"rows":[["a",1],["b",2.5]]}')).toBe(true);
    expect(resultTextFits(rows, ' {\n  "rows": [ ["a \\"]}", 1 ] , ["b\\\\", -2e3] ],\n "note": "x" }\n')).toBe(true);
  });

  it('refuses what the type does not allow, in a member, an element or by a count', () => {
    expect(resultTextFits(rows, '{"rows":[["a",1],["b","2"]]}')).toBe(false);
    expect(resultTextFits(rows, '{"rows":[]}')).toBe(false);
    expect(resultTextFits(rows, '{"note":"no rows"}')).toBe(false);
    expect(resultTextFits(rows, '{"rows":[["a",1]],"extra":1}')).toBe(false);
    expect(resultTextFits(rows, '[["a",1]]')).toBe(false);
  });

  it('cannot tell, and says false, for text that is not one JSON document or repeats a key', () => {
    expect(resultTextFits(rows, '{"rows":[["a",1]]')).toBe(false);
    expect(resultTextFits(rows, '{"rows":[["a",1]]} {}')).toBe(false);
    expect(resultTextFits(rows, '{"rows":[["a",1],]}')).toBe(false);
    expect(resultTextFits(rows, '{"rows":[["a",1]],"rows":[["b",2]]}')).toBe(false);
    expect(resultTextFits(rows, 'null')).toBe(false);
  });

  it('checks whole what it does not follow element by element (uniqueItems), and allows undeclared members unless forbidden', () => {
    expect(resultTextFits(open, '{"total":1,"tags":["a","b"],"more":{"x":1}}')).toBe(true);
    expect(resultTextFits(open, '{"total":1,"tags":["a","a"]}')).toBe(false);
  });
});
