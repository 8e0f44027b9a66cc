// Each mistake the authoring API promises to catch at compile time (README, "Writing a domain module"):
// every `@ts-expect-error` below must meet an error, or the type check fails.
import { expectTypeOf, test } from 'vitest';
import {
  defineAlgorithm,
  defineDataSource,
  defineDomain,
  defineKpi,
  defineResultType,
  defineSchemas,
  type Dataset,
  type DatasetOf,
} from '../../src/index.js';
import { runAlgorithm } from '../../src/testing/index.js';

const schemas = defineSchemas({
  orders: {
    tables: {
      orders: {
        columns: {
          id: { type: 'string', primaryKey: true },
          quantity: { type: 'integer' },
          note: { type: 'string', required: false },
          express: { type: 'boolean', required: false, default: false },
          placed_at: { type: 'datetime', nullable: true },
        },
      },
    },
  },
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

const sumQuantities = defineAlgorithm({
  name: 'Sum',
  parameters: {},
  result: totals,
  run: (data: Orders) => ({ total: data.tables.orders.column('quantity').reduce((a, b) => a + b, 0) }),
});
const totalKpi = defineKpi({ name: 'Total', unit: 'pcs', betterWhen: 'HIGHER', appliesTo: totals, compute: (result) => result.total });

test('a table reads as typed rows and columns', () => {
  type Row = Orders['tables']['orders']['rows'][number];
  expectTypeOf<Row>().toEqualTypeOf<{
    readonly id: string;
    readonly quantity: number;
    readonly note: string | null;
    readonly express: boolean;
    readonly placed_at: string | null;
  }>();
  expectTypeOf<ReturnType<Orders['tables']['orders']['column']>>().toEqualTypeOf<readonly (string | number | boolean | null)[]>();
  const read = (data: Orders) => data.tables.orders.column('quantity');
  expectTypeOf(read).returns.toEqualTypeOf<readonly number[]>();
});

test('reading a table the schema lacks is a compile error', () => {
  defineAlgorithm({
    name: 'Reads a missing table',
    parameters: {},
    // @ts-expect-error the schemas declare no table `customers`
    run: (data: Orders) => data.tables.customers.length,
  });
  // @ts-expect-error the schemas declare no column `price`
  const price = (data: Orders) => data.tables.orders.column('price');
  void price;
});

test('an algorithm returning something else than its declared result type is a compile error', () => {
  defineAlgorithm({
    name: 'Wrong result',
    parameters: {},
    result: totals,
    // @ts-expect-error `count` is not a `Total`
    run: () => ({ count: 1 }),
  });
});

test('a KPI over a result no algorithm returns is a compile error', () => {
  const countKpi = defineKpi({ name: 'Count', unit: '', betterWhen: 'HIGHER', appliesTo: counts, compute: (result) => result.count });
  defineDomain({
    name: 'kpi over a result type no algorithm declares',
    schemas,
    algorithms: [sumQuantities],
    // @ts-expect-error no algorithm declares `result: counts`
    kpis: [totalKpi, countKpi],
  });

  const untargeted = defineKpi({ name: 'Count', unit: '', betterWhen: 'HIGHER', compute: (result: Count) => result.count });
  defineDomain({
    name: 'kpi for every algorithm over a result none returns',
    schemas,
    algorithms: [sumQuantities],
    // @ts-expect-error no algorithm returns a `Count`
    kpis: [untargeted],
  });

  // @ts-expect-error `Sum` returns a `Total`, not a `Count`
  defineKpi({
    name: 'Count of Sum',
    unit: '',
    betterWhen: 'HIGHER',
    appliesTo: [sumQuantities],
    compute: (result: Count) => result.count,
  });
});

test('a KPI over an algorithm the domain lacks is a compile error', () => {
  const other = defineAlgorithm({ name: 'Other', parameters: {}, run: (): Count => ({ count: 1 }) });
  const otherKpi = defineKpi({ name: 'Other count', unit: '', betterWhen: 'HIGHER', appliesTo: [other], compute: (result) => result.count });
  defineDomain({
    name: 'kpi over a missing algorithm',
    schemas,
    algorithms: [sumQuantities],
    // @ts-expect-error `Other` is not among the algorithms
    kpis: [otherKpi],
  });
});

test('a prepare output that does not match an algorithm input is a compile error', () => {
  interface Prepared {
    readonly quantities: readonly number[];
  }
  const dataSource = defineDataSource({
    parameters: {},
    prepare: (dataset: Orders): Prepared => ({ quantities: dataset.tables.orders.column('quantity') }),
  });
  const onPrepared = defineAlgorithm({ name: 'Prepared', parameters: {}, run: (data: Prepared): Total => ({ total: data.quantities.length }) });
  const ok = defineDomain({ name: 'fits', schemas, algorithms: [onPrepared], kpis: [], dataSource });
  expectTypeOf(ok.algorithms[0].name).toEqualTypeOf<'Prepared'>();

  defineDomain({
    name: 'algorithm wants the dataset, prepare gives Prepared',
    schemas,
    // @ts-expect-error `Sum` takes `Orders`, but algorithms receive `Prepared`
    algorithms: [sumQuantities],
    kpis: [],
    dataSource,
  });

  defineDomain({
    name: 'algorithm wants Prepared, there is no prepare',
    schemas,
    // @ts-expect-error without `prepare`, algorithms receive the dataset, not `Prepared`
    algorithms: [onPrepared],
    kpis: [],
  });

  const kpiOnDataset = defineKpi({ name: 'Rows', unit: '', betterWhen: 'HIGHER', appliesTo: totals, compute: (_r, data: Orders) => data.tables.orders.length });
  defineDomain({
    name: 'KPI wants the dataset, prepare gives Prepared',
    schemas,
    algorithms: [defineAlgorithm({ name: 'Prepared', parameters: {}, result: totals, run: (data: Prepared) => ({ total: data.quantities.length }) })],
    // @ts-expect-error KPIs receive `Prepared` too
    kpis: [kpiOnDataset],
    dataSource,
  });

  const rawPrepare = defineDataSource({ parameters: {}, prepare: (dataset: Dataset): Prepared => ({ quantities: [dataset.tables.orders?.rows.length ?? 0] }) });
  defineDomain({
    name: 'prepare reads the stored form, not the typed one',
    schemas,
    algorithms: [onPrepared],
    kpis: [],
    // @ts-expect-error `prepare` receives `DatasetOf<typeof schemas>`, not the stored `Dataset`
    dataSource: rawPrepare,
  });
});

test('runAlgorithm is typed by the algorithm it runs', async () => {
  const domain = defineDomain({ name: 'typed runs', schemas, algorithms: [sumQuantities], kpis: [totalKpi] });
  const run = await runAlgorithm(domain, 'Sum', ['orders.csv']);
  expectTypeOf(run.result.total).toEqualTypeOf<number>();
  // @ts-expect-error the domain has no algorithm `Nope`
  await runAlgorithm(domain, 'Nope', ['orders.csv']);
  const withParams = defineDomain({
    name: 'typed params',
    schemas,
    algorithms: [defineAlgorithm({ name: 'Scaled', parameters: { factor: { kind: 'float', default: 1 } }, run: (_d: Orders, p): Total => ({ total: p.factor }) })],
    kpis: [],
  });
  await runAlgorithm(withParams, 'Scaled', ['orders.csv'], { factor: 2 });
  // @ts-expect-error `factor` is a number
  await runAlgorithm(withParams, 'Scaled', ['orders.csv'], { factor: 'two' });
});

test('a seedParameter that names no parameter of the algorithm is a compile error', () => {
  defineAlgorithm({ name: 'Seeded', parameters: { seed: { kind: 'integer' } }, seedParameter: 'seed', run: (_d: Orders, p): Total => ({ total: p.seed ?? 0 }) });
  // @ts-expect-error the algorithm has no parameter `sede`
  defineAlgorithm({ name: 'Misspelt', parameters: { seed: { kind: 'integer' } }, seedParameter: 'sede', run: (_d: Orders): Total => ({ total: 0 }) });
});
