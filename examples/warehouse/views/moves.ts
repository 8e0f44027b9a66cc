import { defineResultView } from '../../../src/domain/views.js';
import { dailyTravel, manhattan } from '../geometry.js';
import type { WarehouseData } from '../model.js';
import { ORIGIN, slotting, type SlottingResult } from '../result.js';

/**
 * Every SKU the result moves: from its current location to its new one, and the walking that saves per
 * day (negative when the move walks more, e.g. to balance zones). Largest saving first.
 */
export const moves = defineResultView({
  name: 'moves',
  title: 'Moves',
  kind: 'table',
  appliesTo: slotting,
  render: (result: SlottingResult, data: WarehouseData) => {
    const depot = result.depot ?? ORIGIN;
    const travel = (picks: number, locationId: string | null) => {
      const location = locationId === null ? undefined : data.locationById.get(locationId);
      return location ? dailyTravel(picks, manhattan(depot, location)) : null;
    };
    return {
      columns: [
        { name: 'sku', label: 'SKU' },
        { name: 'from', label: 'From' },
        { name: 'to', label: 'To' },
        { name: 'saving', label: 'Saving', unit: 'm/day', format: ',.1f', type: 'float' },
      ],
      sort: { column: 'saving', descending: true },
      rows: (function* () {
        for (const { sku, location } of result.assignments) {
          const item = data.skuById.get(sku);
          if (!item || item.currentLocation === location) continue;
          const before = travel(item.dailyPicks, item.currentLocation);
          const after = travel(item.dailyPicks, location);
          yield [sku, item.currentLocation, location, before === null || after === null ? null : before - after];
        }
      })(),
    };
  },
});
