import { defineComparisonView } from '../../../src/domain/views.js';
import { dailyTravel, manhattan } from '../geometry.js';
import type { WarehouseData } from '../model.js';
import { ORIGIN, slotting, type SlottingResult } from '../result.js';

/** Metres walked per day in each zone, one bar per compared scenario: where each plan saves. */
export const travelByZone = defineComparisonView({
  name: 'travel-by-zone',
  title: 'Travel distance by zone',
  kind: 'chart',
  appliesTo: slotting,
  render: (runs: readonly { tag: string; result: SlottingResult; data: WarehouseData }[]) => {
    const values = runs.flatMap(({ tag, result, data }) => {
      const depot = result.depot ?? ORIGIN;
      const byZone = new Map<string, number>(data.locations.map((l) => [l.zone, 0]));
      for (const { sku, location } of result.assignments) {
        const picks = data.skuById.get(sku)?.dailyPicks;
        const place = data.locationById.get(location);
        if (picks !== undefined && place) byZone.set(place.zone, byZone.get(place.zone)! + dailyTravel(picks, manhattan(depot, place)));
      }
      return [...byZone].map(([zone, travel]) => ({ scenario: tag, zone, travel }));
    });
    return {
      vegaLite: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        data: { values },
        mark: 'bar',
        encoding: {
          x: { field: 'zone', type: 'nominal', title: 'Zone' },
          xOffset: { field: 'scenario', type: 'nominal', sort: runs.map((r) => r.tag) },
          y: { field: 'travel', type: 'quantitative', title: 'Travel (m/day)' },
          color: { field: 'scenario', type: 'nominal', title: 'Scenario', sort: runs.map((r) => r.tag) },
          tooltip: [{ field: 'scenario' }, { field: 'zone' }, { field: 'travel', format: ',.0f' }],
        },
      },
    };
  },
});
