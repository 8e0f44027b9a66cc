// The domain-module example of README.md, compiled by the type tests so the README stays true.
import { expectTypeOf, test } from 'vitest';
import { defineAlgorithm, defineDomain, defineKpi, defineSchemas, param, type DatasetOf } from '../../src/index.js';
import { runAlgorithm } from '../../src/testing/index.js';

// README begins
const schemas = defineSchemas({                          // ETL: the file `sku_data.csv` fills this group
  sku_data: { tables: { sku_data: { columns: {
    sku: { type: 'string', primaryKey: true },
    daily_picks: { type: 'float' },
    category: { type: 'string', required: false, nullable: true },
  } } } },
});
type Data = DatasetOf<typeof schemas>;                   // data.tables.sku_data.rows[i].daily_picks: number

interface Choice { readonly chosen: string[]; readonly picks: number }

const pickFastest = defineAlgorithm({
  name: 'Pick Fastest',
  parameters: {
    count: param.integer({ min: 1, max: 1000, default: 10, description: 'how many SKUs' }),
    mode: param.enum({ choices: ['picks', 'volume'], default: 'picks' }),
    window: param.interval({ required: false }),       // [start, end] ISO dates, or null
  },
  async run(data: Data, params, ctx): Promise<Choice> { // params.count: number, params.mode: 'picks' | 'volume'
    const skus = data.tables.sku_data;                  // data.tables.other: compile error
    const picks = skus.column('daily_picks');           // fast columnar read: readonly number[]
    const order = picks.map((_, i) => i).sort((a, b) => picks[b]! - picks[a]!);
    ctx.progress(0.5);                                  // 0..1, monotone; stops here once cancelled
    const chosen = order.slice(0, params.count).map((i) => skus.rows[i]!); // rows[i].sku: string
    ctx.log.info('done', { rows: skus.length });
    return { chosen: chosen.map((row) => row.sku), picks: chosen.reduce((sum, row) => sum + row.daily_picks, 0) };
  },
});

const chosenPicks = defineKpi({
  name: 'Chosen Picks', unit: 'picks/day', betterWhen: 'HIGHER',
  appliesTo: [pickFastest],                             // result: Choice, data: Data
  compute: (result) => result.picks,
});

export default defineDomain({ name: 'mine', schemas, algorithms: [pickFastest], kpis: [chosenPicks] });
// README ends

const domain = defineDomain({ name: 'mine', schemas, algorithms: [pickFastest], kpis: [chosenPicks] });

test('the README example infers its parameter, table and result types', async () => {
  expectTypeOf<Parameters<typeof pickFastest.run>[1]['count']>().toEqualTypeOf<number>();
  expectTypeOf<Parameters<typeof pickFastest.run>[1]['mode']>().toEqualTypeOf<'picks' | 'volume'>();
  expectTypeOf<Data['tables']['sku_data']['rows'][number]>().toEqualTypeOf<{
    readonly sku: string;
    readonly daily_picks: number;
    readonly category: string | null;
  }>();
  expectTypeOf<Parameters<typeof chosenPicks.compute>[0]>().toEqualTypeOf<Choice>();
  // README testing begins
  const run = await runAlgorithm(domain, 'Pick Fastest', ['./sku_data.csv'], { count: 3 });
  // README testing ends
  expectTypeOf(run.result).toEqualTypeOf<Choice>();
  expectTypeOf(run.kpis).toEqualTypeOf<Readonly<Record<string, number>>>();
});
