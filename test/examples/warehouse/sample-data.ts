import { generateWarehouse } from '../../../examples/warehouse/generate-samples.js';
import type { WarehouseData } from '../../../examples/warehouse/model.js';
import { datasetFromCsv, prepare } from './fixtures.js';

/** The committed sample's size and seed, generated in memory. */
export function sampleData(): WarehouseData {
  const { skuCsv, layoutCsv } = generateWarehouse({ skus: 200, locations: 240, seed: 1 });
  return prepare(datasetFromCsv(skuCsv, layoutCsv));
}

/** A bigger generated warehouse where every SKU fits, for scale checks. */
export function largeData(skus: number): WarehouseData {
  const { skuCsv, layoutCsv } = generateWarehouse({ skus, locations: Math.ceil(skus * 1.1), seed: 3 });
  return prepare(datasetFromCsv(skuCsv, layoutCsv));
}
