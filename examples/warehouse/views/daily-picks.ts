import { defineDatasetView } from '../../../src/domain/views.js';
import type { WarehouseDataset } from '../schemas.js';

/** Bars of the histogram: binned here, so the chart carries a few rows whatever the number of SKUs. */
const BINS = 20;

/** How daily picks spread over the SKUs: a few fast movers and a long tail is what slotting exploits. */
export const dailyPicks = defineDatasetView({
  name: 'daily-picks',
  title: 'Daily picks per SKU',
  kind: 'chart',
  description: 'The distribution of daily picks over the SKUs.',
  render: (dataset: WarehouseDataset) => {
    const picks = dataset.tables.sku_data.column('daily_picks');
    const max = picks.reduce((m, p) => Math.max(m, p), 0);
    const width = max > 0 ? max / BINS : 1;
    const counts = new Array<number>(BINS).fill(0);
    for (const p of picks) counts[Math.min(BINS - 1, Math.floor(p / width))]! += 1;
    return {
      vegaLite: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        data: { values: counts.map((skus, i) => ({ from: i * width, to: (i + 1) * width, skus })) },
        mark: 'bar',
        encoding: {
          x: { field: 'from', type: 'quantitative', bin: { binned: true, step: width }, title: 'Daily picks' },
          x2: { field: 'to' },
          y: { field: 'skus', type: 'quantitative', title: 'SKUs' },
          tooltip: [{ field: 'from', format: '.1f' }, { field: 'to', format: '.1f' }, { field: 'skus' }],
        },
      },
    };
  },
});
