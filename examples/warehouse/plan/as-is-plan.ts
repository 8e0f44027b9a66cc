import type { WarehouseData } from '../model.js';
import { UNASSIGNED, type Plan } from './plan.js';

/** Today's slotting: each SKU at its `current_location`; unassigned when it has none or it is not in the layout. */
export function asIsPlan(data: WarehouseData): Plan {
  const indexOf = (location: string | null) => (location === null ? undefined : data.locationIndex.get(location));
  return Int32Array.from(data.skus, (sku) => indexOf(sku.currentLocation) ?? UNASSIGNED);
}
