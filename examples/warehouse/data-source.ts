import type { Dataset } from '../../src/datasets/model.js';
import { defineDataSource } from '../../src/domain/define.js';
import type { Location, Sku, WarehouseData } from './model.js';
import { tableReader } from './table-reader.js';

/**
 * Turns a stored dataset into `WarehouseData`. Only `prepare` is defined: the service's default codec
 * and derive (an independent copy) fit these plain tables.
 */
export const dataSource = defineDataSource({
  parameters: {
    category: {
      kind: 'string',
      default: '',
      description: 'Slot only SKUs of this category (exact match); empty slots every category.',
    },
    min_daily_picks: {
      kind: 'float',
      min: 0,
      default: 0,
      description: 'Slot only SKUs picked at least this often per day.',
    },
  },
  prepare(dataset, params): WarehouseData {
    const locations = readLocations(dataset);
    const locationById = new Map<string, Location>();
    const locationIndex = new Map<string, number>();
    locations.forEach((location, i) => {
      locationById.set(location.id, location);
      locationIndex.set(location.id, i);
    });
    const keep = (sku: Sku) => (params.category === '' || sku.category === params.category) && sku.dailyPicks >= params.min_daily_picks;
    const skus = readSkus(dataset, locationById).filter(keep);
    const skuById = new Map(skus.map((sku) => [sku.id, sku]));
    return { skus, locations, skuById, locationById, locationIndex };
  },
});

function readLocations(dataset: Dataset): Location[] {
  const t = tableReader(dataset, 'warehouse_layout');
  const [id, zone] = [t.string('location'), t.string('zone')];
  const [aisle, bay, level] = [t.number('aisle'), t.number('bay'), t.number('level')];
  const [x, y, capacity] = [t.number('x'), t.number('y'), t.optionalNumber('capacity', 1)];
  const locations = new Array<Location>(t.rowCount);
  for (let i = 0; i < t.rowCount; i++) {
    // A fractional or negative capacity cannot hold part of a SKU: round down, never below zero.
    const slots = Math.max(0, Math.floor(capacity(i)));
    locations[i] = { id: id(i), zone: zone(i), aisle: aisle(i), bay: bay(i), level: level(i), x: x(i), y: y(i), capacity: slots };
  }
  return locations;
}

function readSkus(dataset: Dataset, locationById: ReadonlyMap<string, Location>): Sku[] {
  const t = tableReader(dataset, 'sku_data');
  const [id, category, dailyPicks] = [t.string('sku'), t.string('category'), t.number('daily_picks')];
  const [description, current] = [t.optionalString('description'), t.optionalString('current_location')];
  const skus = new Array<Sku>(t.rowCount);
  for (let i = 0; i < t.rowCount; i++) {
    const currentLocation = current(i);
    const currentZone = currentLocation === null ? null : (locationById.get(currentLocation)?.zone ?? null);
    skus[i] = { id: id(i), description: description(i), category: category(i), dailyPicks: dailyPicks(i), currentLocation, currentZone };
  }
  return skus;
}
