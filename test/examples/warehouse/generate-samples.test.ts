import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateWarehouse } from '../../../examples/warehouse/generate-samples.js';
import { datasetFromCsv, prepare } from './fixtures.js';

const committed = (file: string) => readFileSync(fileURLToPath(new URL(`../../../examples/warehouse/sample/${file}`, import.meta.url)), 'utf8');

describe('generateWarehouse', () => {
  it('produces byte-identical files for the same options', () => {
    const options = { skus: 500, locations: 300, seed: 9 };
    expect(generateWarehouse(options)).toEqual(generateWarehouse(options));
  });

  it('produces different SKUs for a different seed', () => {
    expect(generateWarehouse({ skus: 50, locations: 60, seed: 1 }).skuCsv).not.toBe(generateWarehouse({ skus: 50, locations: 60, seed: 2 }).skuCsv);
  });

  it('writes the requested number of rows, SKUs semicolon-delimited and locations comma-delimited', () => {
    const { skuCsv, layoutCsv } = generateWarehouse({ skus: 123, locations: 77, seed: 1 });
    const [skuHeader, ...skuRows] = skuCsv.trimEnd().split('\n');
    const [layoutHeader, ...layoutRows] = layoutCsv.trimEnd().split('\n');
    expect(skuHeader).toBe('sku;description;category;daily_picks;current_location');
    expect(layoutHeader).toBe('location,zone,aisle,bay,level,x,y,capacity');
    expect(skuRows).toHaveLength(123);
    expect(layoutRows).toHaveLength(77);
  });

  it('places today no more SKUs in a location than it holds', () => {
    const { skuCsv, layoutCsv } = generateWarehouse({ skus: 400, locations: 240, seed: 5 });
    const data = prepare(datasetFromCsv(skuCsv, layoutCsv));
    const used = new Map<string, number>();
    for (const sku of data.skus) if (sku.currentLocation) used.set(sku.currentLocation, (used.get(sku.currentLocation) ?? 0) + 1);
    for (const [location, count] of used) expect(count).toBeLessThanOrEqual(data.locationById.get(location)!.capacity);
    expect(data.skus.some((sku) => sku.currentLocation === null)).toBe(true);
  });

  it('matches the committed sample files (regenerate them with the CLI after changing the generator)', () => {
    const { skuCsv, layoutCsv } = generateWarehouse({ skus: 200, locations: 240, seed: 1 });
    expect(committed('sku_data.csv')).toBe(skuCsv);
    expect(committed('warehouse_layout.csv')).toBe(layoutCsv);
  });
});
