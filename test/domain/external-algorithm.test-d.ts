// What the authoring API promises for external algorithms at compile time: KPIs and views take their
// result type, listed by algorithm or by result type, beside TypeScript algorithms of any data.
import { expectTypeOf, test } from 'vitest';
import {
  defineDomain,
  defineExternalAlgorithm,
  defineKpi,
  defineResultType,
  defineResultView,
  defineSchemas,
  Type,
  type DatasetOf,
} from '../../src/index.js';

const schemas = defineSchemas({
  orders: { tables: { orders: { columns: { id: { type: 'string', primaryKey: true }, quantity: { type: 'integer' } } } } },
});

const picked = defineResultType('picked', Type.Object({ ids: Type.Array(Type.String()), total: Type.Number() }));

const pick = defineExternalAlgorithm({
  name: 'Pick',
  parameters: { count: { kind: 'integer', min: 1, default: 3 } },
  result: picked,
  external: { command: ['python3', './pick.py'] },
});

test('a KPI listing an external algorithm gets its result type, and the domain data', () => {
  const total = defineKpi({
    name: 'Total',
    unit: '',
    betterWhen: 'HIGHER',
    appliesTo: [pick],
    compute: (result, data) => {
      expectTypeOf(result).toEqualTypeOf<{ ids: string[]; total: number }>();
      expectTypeOf(data).toBeUnknown();
      return result.total;
    },
  });
  const table = defineResultView({
    name: 'ids',
    title: 'Picked ids',
    kind: 'text',
    appliesTo: picked,
    render: (result) => ({ markdown: result.ids.join(', ') }),
  });
  const domain = defineDomain({ name: 'd', schemas, algorithms: [pick], kpis: [total], views: [table] });
  expectTypeOf(domain.algorithms[0].name).toEqualTypeOf<'Pick'>();
});

test('a KPI over a result no algorithm returns is still a compile error', () => {
  const other = defineResultType('other', Type.Object({ n: Type.Number() }));
  const wrong = defineKpi({ name: 'N', unit: '', betterWhen: 'HIGHER', appliesTo: other, compute: (result) => result.n });
  // @ts-expect-error no algorithm of this domain returns the result this KPI measures
  defineDomain({ name: 'd', schemas, algorithms: [pick], kpis: [wrong] });
  expectTypeOf<DatasetOf<typeof schemas>['tables']['orders']['length']>().toEqualTypeOf<number>();
});
