// What the authoring API promises for explanations at compile time: row references name a table of the
// schemas and a key of its primary key's type; terms take the KPI's result and data.
import { expectTypeOf, test } from 'vitest';
import { defineAlgorithm, defineExplanations, defineKpi, defineSchemas, type DatasetOf, type RowRef, type Violation } from '../../src/index.js';

const schemas = defineSchemas({
  stock: {
    tables: {
      items: { columns: { sku: { type: 'string', primaryKey: true }, weight: { type: 'float' } } },
      bins: { columns: { bin: { type: 'integer', primaryKey: true }, room: { type: 'integer' } } },
      notes: { columns: { text: { type: 'string' } } },
    },
  },
});
const explain = defineExplanations(schemas);

test('a row names a table of the schemas with a key of its primary key type', () => {
  explain.row('items', 'SKU-1');
  explain.row('bins', 7);
  // A table without a primary key is keyed by row position.
  explain.row('notes', 0);
  // @ts-expect-error: no such table in the schemas
  explain.row('itemz', 'SKU-1');
  // @ts-expect-error: items are keyed by a string
  explain.row('items', 1);
  // @ts-expect-error: bins are keyed by an integer
  explain.row('bins', 'B-7');
  expectTypeOf(explain.row('items', 'a')).toExtend<RowRef>();
});

test('a violation built by the kit has its rows checked, and is a plain Violation', () => {
  const ok = explain.violation({ constraint: 'room', severity: 'hard', amount: 2, rows: [{ table: 'bins', key: 3 }, { table: 'items', key: 'a' }], message: 'full' });
  expectTypeOf(ok).toEqualTypeOf<Violation>();
  // @ts-expect-error: a row whose key has the wrong type for its table
  explain.violation({ constraint: 'room', severity: 'hard', amount: 2, rows: [{ table: 'bins', key: 'three' }], message: 'full' });
  // @ts-expect-error: severity is hard or soft
  explain.violation({ constraint: 'room', severity: 'fatal', amount: 2, rows: [], message: 'full' });
});

test("ctx.explain takes an explanation, and a KPI's terms take its result and data", () => {
  const heaviest = defineAlgorithm({
    name: 'Heaviest',
    parameters: {},
    run(data: DatasetOf<typeof schemas>, _params, ctx) {
      ctx.explain(explain.explanation({ violations: [], infeasible: false }));
      return { chosen: data.tables.items.rows.map((row) => row.sku) };
    },
  });
  defineKpi({
    name: 'Chosen',
    unit: '',
    betterWhen: 'HIGHER',
    appliesTo: [heaviest],
    compute: (result) => result.chosen.length,
    terms: {
      by: 'sku',
      compute: (result, data) => {
        expectTypeOf(result.chosen).toEqualTypeOf<string[]>();
        expectTypeOf(data.tables.items.rows[0]!.weight).toEqualTypeOf<number>();
        return Object.fromEntries(result.chosen.map((sku) => [sku, 1]));
      },
    },
  });
});
