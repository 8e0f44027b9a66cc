// The domain-module example of README.md, compiled by the type tests so the README stays true.
import { expectTypeOf, test } from 'vitest';
import { defineAlgorithm, defineDomain, defineKpi, param, type Dataset } from '../../src/index.js';

const pickFastest = defineAlgorithm({
  name: 'Pick Fastest',
  parameters: {
    count: param.integer({ min: 1, max: 1000, default: 10, description: 'how many SKUs' }),
    mode: param.enum({ choices: ['picks', 'volume'], default: 'picks' }),
    window: param.interval({ required: false }),       // [start, end] ISO dates, or null
  },
  async run(data: Dataset, params, ctx) {               // params.count: number, params.mode: 'picks' | 'volume'
    const rows = data.tables.sku_data?.rows ?? [];
    for (let i = 0; i < rows.length; i++) {
      if (i % 1000 === 0) ctx.progress(i / rows.length); // 0..1, monotone; stops here once cancelled
      ctx.signal.throwIfAborted();
    }
    ctx.log.info('done', { rows: rows.length });
    return { chosen: rows.slice(0, params.count).map((r) => r[0]) };
  },
});

const chosen = defineKpi<{ chosen: unknown[] }>({
  name: 'Chosen', unit: 'SKUs', betterWhen: 'HIGHER', compute: (result) => result.chosen.length,
});

export default defineDomain({
  name: 'mine',
  schemas: {                                            // ETL: the file `sku_data.csv` fills this group
    sku_data: { tables: { sku_data: { columns: {
      sku: { type: 'string', primaryKey: true },
      daily_picks: { type: 'float' },
      category: { type: 'string', required: false, nullable: true },
    } } } },
  },
  algorithms: [pickFastest],
  kpis: [chosen],
});

test('the README example infers its parameter types', () => {
  expectTypeOf<Parameters<typeof pickFastest.run>[1]['count']>().toEqualTypeOf<number>();
  expectTypeOf<Parameters<typeof pickFastest.run>[1]['mode']>().toEqualTypeOf<'picks' | 'volume'>();
});
