import { defineKpi } from '../../../src/domain/define.js';
import { dailyTravel, manhattan } from '../geometry.js';
import type { WarehouseData } from '../model.js';
import { ORIGIN, slotting } from '../result.js';

/**
 * Metres walked per day: for every slotted SKU, daily_picks × 2 × Manhattan distance from the result's
 * depot to its location (one round trip per pick). Assignments naming a SKU or location the data does
 * not hold are skipped; nothing slotted gives 0.
 */
export const travelDistance = defineKpi({
  name: 'Travel Distance',
  unit: 'm',
  betterWhen: 'LOWER',
  description: 'Expected walking per day: sum of daily picks × 2 × Manhattan distance depot → location.',
  appliesTo: slotting,
  compute: (result, data: WarehouseData) => {
    const depot = result.depot ?? ORIGIN;
    let total = 0;
    for (const { sku, location } of result.assignments) {
      const picks = data.skuById.get(sku)?.dailyPicks;
      const place = data.locationById.get(location);
      if (picks !== undefined && place) total += dailyTravel(picks, manhattan(depot, place));
    }
    return total;
  },
  // The same walk, per zone of the location: the zones' terms add up to the KPI.
  terms: {
    by: 'zone',
    compute: (result, data: WarehouseData) => {
      const depot = result.depot ?? ORIGIN;
      const byZone: Record<string, number> = {};
      for (const { sku, location } of result.assignments) {
        const picks = data.skuById.get(sku)?.dailyPicks;
        const place = data.locationById.get(location);
        if (picks !== undefined && place) byZone[place.zone] = (byZone[place.zone] ?? 0) + dailyTravel(picks, manhattan(depot, place));
      }
      return byZone;
    },
  },
});
