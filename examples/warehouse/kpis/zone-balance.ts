import { defineKpi } from '../../../src/domain/define.js';
import type { WarehouseData } from '../model.js';
import { slotting } from '../result.js';

/**
 * How evenly the daily picks spread over the zones, so pickers of different zones share the work:
 * 100 × (picks of the least busy zone) / (picks of the busiest zone), over every zone of the layout
 * (a zone with no picks counts as 0). 100 is perfect balance, also for a single-zone layout; no picks
 * at all, or no zones, gives 0.
 */
export const zoneBalance = defineKpi({
  name: 'Zone Balance',
  unit: '%',
  betterWhen: 'HIGHER',
  description: '100 × picks of the least busy zone / picks of the busiest zone.',
  appliesTo: slotting,
  compute: (result, data: WarehouseData) => {
    const picksByZone = new Map<string, number>(data.locations.map((location) => [location.zone, 0]));
    for (const { sku, location } of result.assignments) {
      const picks = data.skuById.get(sku)?.dailyPicks;
      const zone = data.locationById.get(location)?.zone;
      if (picks !== undefined && zone !== undefined) picksByZone.set(zone, picksByZone.get(zone)! + picks);
    }
    let [quietest, busiest] = [Infinity, 0];
    for (const load of picksByZone.values()) [quietest, busiest] = [Math.min(quietest, load), Math.max(busiest, load)];
    return busiest > 0 ? (100 * quietest) / busiest : 0;
  },
});
