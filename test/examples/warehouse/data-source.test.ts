import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../src/domain/dataset-model.js';
import { prepare, table, warehouseDataset } from './fixtures.js';

const dataset = warehouseDataset(
  [
    { sku: 'S1', category: 'frozen', daily_picks: 10, current_location: 'L2' },
    { sku: 'S2', category: 'snacks', daily_picks: 2, current_location: 'nowhere' },
    { sku: 'S3', category: 'frozen', daily_picks: 0.5 },
  ],
  [
    { location: 'L1', zone: 'A', x: 1, y: 1 },
    { location: 'L2', zone: 'B', x: 5, y: 0, capacity: 3 },
  ],
);

describe('warehouse data source', () => {
  it('prepares every SKU and location as typed records with lookups by id', () => {
    const data = prepare(dataset);
    expect(data.skus.map((s) => s.id)).toEqual(['S1', 'S2', 'S3']);
    expect(data.skuById.get('S1')).toMatchObject({ category: 'frozen', dailyPicks: 10, currentLocation: 'L2', description: null });
    expect(data.locationById.get('L2')).toMatchObject({ zone: 'B', x: 5, y: 0, capacity: 3 });
    expect(data.locationIndex.get('L2')).toBe(1);
  });

  it('derives the current zone from the current location and leaves it null when that location is unknown', () => {
    const data = prepare(dataset);
    expect(data.skus.map((s) => s.currentZone)).toEqual(['B', null, null]);
  });

  it('keeps only SKUs of the chosen category', () => {
    expect(prepare(dataset, { category: 'frozen' }).skus.map((s) => s.id)).toEqual(['S1', 'S3']);
  });

  it('keeps only SKUs picked at least min_daily_picks times a day', () => {
    expect(prepare(dataset, { min_daily_picks: 2 }).skus.map((s) => s.id)).toEqual(['S1', 'S2']);
  });

  it('never filters locations', () => {
    expect(prepare(dataset, { category: 'none', min_daily_picks: 100 }).locations).toHaveLength(2);
  });

  it('names the missing table when the dataset lacks one', () => {
    const { warehouse_layout: _, ...tables } = dataset.tables;
    expect(() => prepare({ ...dataset, tables })).toThrow(/no table 'warehouse_layout'/);
  });

  it('names the missing column when a required column is absent', () => {
    const layout = table({ location: 'string', zone: 'string' }, [['L1', 'A']]);
    const broken: Dataset = { ...dataset, tables: { ...dataset.tables, warehouse_layout: layout } };
    expect(() => prepare(broken)).toThrow(/table 'warehouse_layout' has no column 'aisle'/);
  });

  it('names table, column and row of a cell that is not a number', () => {
    const skus = table({ sku: 'string', category: 'string', daily_picks: 'float' }, [['S1', 'c', 'lots']]);
    const broken: Dataset = { ...dataset, tables: { ...dataset.tables, sku_data: skus } };
    expect(() => prepare(broken)).toThrow(/table 'sku_data', column 'daily_picks', row 1/);
  });

  it('treats absent optional columns as empty and capacity as one SKU per location', () => {
    const skus = table({ sku: 'string', category: 'string', daily_picks: 'integer' }, [['S1', 'c', 3]]);
    const layout = table(
      { location: 'string', zone: 'string', aisle: 'integer', bay: 'integer', level: 'integer', x: 'float', y: 'float' },
      [['L1', 'A', 1, 1, 1, 0, 0]],
    );
    const data = prepare({ ...dataset, tables: { sku_data: skus, warehouse_layout: layout } });
    expect(data.skus[0]).toMatchObject({ description: null, currentLocation: null, currentZone: null });
    expect(data.locations[0]?.capacity).toBe(1);
  });
});
