import { defineDataSource } from '../../src/domain/define.js';
import type { Location, Sku, WarehouseData } from './model.js';
import type { WarehouseDataset } from './schemas.js';

/**
 * Turns a stored dataset into `WarehouseData`. Only `prepare` is defined: the service's default codec
 * and derive (an independent copy) fit these plain tables. The tables arrive typed by the schemas (and
 * checked against them: a dataset that lacks a column, or has an empty required cell, fails the run
 * naming table, column and row), so reading them needs no conversions.
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
  prepare(dataset: WarehouseDataset, params): WarehouseData {
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

function readLocations(dataset: WarehouseDataset): Location[] {
  // A fractional or negative capacity cannot hold part of a SKU: round down, never below zero.
  return dataset.tables.warehouse_layout.rows.map((row) => ({
    id: row.location,
    zone: row.zone,
    aisle: row.aisle,
    bay: row.bay,
    level: row.level,
    x: row.x,
    y: row.y,
    capacity: Math.max(0, Math.floor(row.capacity)),
  }));
}

function readSkus(dataset: WarehouseDataset, locationById: ReadonlyMap<string, Location>): Sku[] {
  return dataset.tables.sku_data.rows.map((row) => {
    const currentLocation = row.current_location === '' ? null : row.current_location;
    const currentZone = currentLocation === null ? null : (locationById.get(currentLocation)?.zone ?? null);
    const description = row.description === '' ? null : row.description;
    return { id: row.sku, description, category: row.category, dailyPicks: row.daily_picks, currentLocation, currentZone };
  });
}
