import { defineKpi } from '../../../src/domain/define.js';
import type { WarehouseData } from '../model.js';
import { slotting } from '../result.js';

/**
 * The work of putting the slotting into effect: slotted SKUs whose location differs from their
 * `current_location` (a SKU without one counts, it must be put away). Unassigned SKUs are not counted,
 * and neither are SKUs the data does not hold.
 */
export const reslotMoves = defineKpi({
  name: 'Reslot Moves',
  unit: 'moves',
  betterWhen: 'LOWER',
  description: 'Slotted SKUs whose location differs from their current location.',
  appliesTo: slotting,
  compute: (result, data: WarehouseData) => {
    let moves = 0;
    for (const { sku, location } of result.assignments) {
      const known = data.skuById.get(sku);
      if (known && known.currentLocation !== location) moves++;
    }
    return moves;
  },
  // The same moves, per category of the SKU moved.
  terms: {
    by: 'category',
    compute: (result, data: WarehouseData) => {
      const byCategory: Record<string, number> = {};
      for (const { sku, location } of result.assignments) {
        const known = data.skuById.get(sku);
        if (known && known.currentLocation !== location) byCategory[known.category] = (byCategory[known.category] ?? 0) + 1;
      }
      return byCategory;
    },
  },
});
