import { defineExplanations, type Violation } from '../../src/domain/define.js';
import type { WarehouseData } from './model.js';
import type { SlottingResult } from './result.js';
import { schemas } from './schemas.js';

/**
 * Row references checked by the compiler: `explain.row('warehouse_layout', 'A-01-001-1')` compiles,
 * `explain.row('layout', ...)` or a number as a location does not.
 */
export const explain = defineExplanations(schemas);

/**
 * One hard `capacity` violation per location holding more SKUs than its capacity, naming the location
 * and the SKUs put there; its amount is how many SKUs too many. Locations in layout order. A slotting that
 * respects capacity has none; today's slots (As-Is) break it once a what-if cuts a zone's capacity.
 */
export function capacityViolations(result: SlottingResult, data: WarehouseData): Violation[] {
  const skusAt = new Map<string, string[]>();
  for (const { sku, location } of result.assignments) {
    if (!data.locationById.has(location)) continue;
    let here = skusAt.get(location);
    if (!here) skusAt.set(location, (here = []));
    here.push(sku);
  }
  const violations: Violation[] = [];
  for (const location of data.locations) {
    const skus = skusAt.get(location.id);
    if (!skus || skus.length <= location.capacity) continue;
    violations.push(
      explain.violation({
        constraint: 'capacity',
        severity: 'hard',
        amount: skus.length - location.capacity,
        rows: [explain.row('warehouse_layout', location.id), ...skus.map((sku) => explain.row('sku_data', sku))],
        message: `${location.id} (zone ${location.zone}) holds ${skus.length} SKUs but has room for ${location.capacity}`,
      }),
    );
  }
  return violations;
}
