// The view mistakes the authoring API promises to catch at compile time (docs/api/views.md): every
// `@ts-expect-error` below must meet an error, or the type check fails.
import { expectTypeOf, test } from 'vitest';
import {
  defineAlgorithm,
  defineComparisonView,
  defineDatasetView,
  defineDomain,
  defineResultType,
  defineResultView,
  defineSchemas,
  type DatasetOf,
} from '../../src/index.js';

const schemas = defineSchemas({
  orders: { tables: { orders: { columns: { id: { type: 'string', primaryKey: true }, quantity: { type: 'integer' } } } } },
});
type Orders = DatasetOf<typeof schemas>;

interface Total {
  readonly total: number;
}
interface Count {
  readonly count: number;
}
const totals = defineResultType<Total>('total');
const counts = defineResultType<Count>('count');

const sum = defineAlgorithm({
  name: 'Sum',
  parameters: {},
  result: totals,
  run: (data: Orders) => ({ total: data.tables.orders.column('quantity').reduce((a, b) => a + b, 0) }),
});
const countRows = defineAlgorithm({ name: 'Count', parameters: {}, run: (data: Orders): Count => ({ count: data.tables.orders.length }) });

const totalTable = defineResultView({
  name: 'total',
  title: 'Total',
  kind: 'table',
  appliesTo: totals,
  render: (result) => ({ columns: [{ name: 'total', unit: 'pcs' }], rows: [[result.total]] }),
});
const ordersChart = defineDatasetView({
  name: 'orders',
  title: 'Orders',
  kind: 'chart',
  render: (dataset: Orders) => ({ vegaLite: { mark: 'bar' }, datasets: { orders: dataset.tables.orders.rows } }),
});
const totalsCompared = defineComparisonView({
  name: 'totals',
  title: 'Totals',
  kind: 'metrics',
  appliesTo: totals,
  render: (runs) => ({ items: runs.map((run) => ({ label: run.tag, value: run.result.total, betterWhen: 'HIGHER' as const })) }),
});

test('a view is typed by what it applies to, and returns the spec of its kind', () => {
  defineResultView({
    name: 'count',
    title: 'Count',
    kind: 'text',
    appliesTo: [countRows],
    render: (result, data) => {
      expectTypeOf(result).toEqualTypeOf<Count>();
      expectTypeOf(data).toEqualTypeOf<Orders>();
      return { markdown: `${result.count}` };
    },
  });
  // @ts-expect-error a table view returns columns and rows, not markdown
  defineResultView({ name: 'x', title: 'X', kind: 'table', appliesTo: totals, render: () => ({ markdown: 'no' }) });
  // @ts-expect-error a result has no field the result type does not declare
  defineResultView({ name: 'x', title: 'X', kind: 'text', appliesTo: totals, render: (result) => ({ markdown: String(result.count) }) });
  // @ts-expect-error a cell is a string, number, boolean or null
  defineResultView({ name: 'x', title: 'X', kind: 'table', appliesTo: totals, render: () => ({ columns: [{ name: 'a' }], rows: [[{ a: 1 }]] }) });
});

test('a domain takes views over results its algorithms return', () => {
  defineDomain({ name: 'ok', schemas, algorithms: [sum, countRows], kpis: [], views: [ordersChart, totalTable, totalsCompared] });
});

test('a view over a result no algorithm returns does not compile', () => {
  const countTable = defineResultView({ name: 'c', title: 'C', kind: 'text', appliesTo: counts, render: (r) => ({ markdown: `${r.count}` }) });
  // @ts-expect-error no algorithm of the domain declares result type `counts`
  defineDomain({ name: 'bad', schemas, algorithms: [sum], kpis: [], views: [countTable] });
  const countCompared = defineComparisonView({ name: 'c', title: 'C', kind: 'text', appliesTo: counts, render: () => ({ markdown: '' }) });
  // @ts-expect-error a comparison view too
  defineDomain({ name: 'bad', schemas, algorithms: [sum], kpis: [], views: [countCompared] });
  const ofCount = defineResultView({ name: 'c', title: 'C', kind: 'text', appliesTo: [countRows], render: (r) => ({ markdown: `${r.count}` }) });
  // @ts-expect-error the view applies to an algorithm that is not in the domain
  defineDomain({ name: 'bad', schemas, algorithms: [sum], kpis: [], views: [ofCount] });
  const unscoped = defineResultView({ name: 'u', title: 'U', kind: 'text', render: (r: Count) => ({ markdown: `${r.count}` }) });
  // @ts-expect-error without appliesTo, some algorithm must still return what the view reads
  defineDomain({ name: 'bad', schemas, algorithms: [sum], kpis: [], views: [unscoped] });
});

test('a dataset view takes the domain dataset', () => {
  const _other = defineSchemas({ items: { tables: { items: { columns: { name: { type: 'string' } } } } } });
  const itemsView = defineDatasetView({ name: 'i', title: 'I', kind: 'text', render: (d: DatasetOf<typeof _other>) => ({ markdown: d.tables.items.rows[0]?.name ?? '' }) });
  // @ts-expect-error a dataset view over tables of other schemas
  defineDomain({ name: 'bad', schemas, algorithms: [sum], kpis: [], views: [itemsView] });
});
