import { defineSchemas } from '../../src/domain/define.js';
import type { DatasetOf } from '../../src/domain/typed-tables.js';

/**
 * What an upload must contain: `sku_data.<ext>` (the articles to slot) and `warehouse_layout.<ext>`
 * (the storage locations). Coordinates are metres on the floor plan, with the depot (where pickers start
 * and drop their picks) at the origin by default.
 */
export const schemas = defineSchemas({
  sku_data: {
    description: 'The stock-keeping units to slot, one row per SKU.',
    tables: {
      sku_data: {
        columns: {
          sku: { type: 'string', primaryKey: true, description: 'SKU identifier.' },
          description: { type: 'string', required: false, nullable: true, default: null, description: 'Free text for people.' },
          category: { type: 'string', description: 'Product category; the `category` data parameter filters on it.' },
          daily_picks: { type: 'float', unit: 'picks/day', description: 'Average picks per day: how fast the SKU moves.' },
          current_location: {
            type: 'string',
            required: false,
            nullable: true,
            default: null,
            description: 'Location the SKU occupies today (empty for a SKU not slotted yet).',
          },
        },
      },
    },
  },
  warehouse_layout: {
    description: 'The storage locations, one row per location.',
    tables: {
      warehouse_layout: {
        columns: {
          location: { type: 'string', primaryKey: true, description: 'Location identifier.' },
          zone: { type: 'string', description: 'Zone (storage area); with `respect_zones` a SKU stays in its current zone.' },
          aisle: { type: 'integer' },
          bay: { type: 'integer' },
          level: { type: 'integer', description: 'Shelf level; informational, travel is measured on the floor.' },
          x: { type: 'float', unit: 'm', description: 'Floor x coordinate of the pick face, metres.' },
          y: { type: 'float', unit: 'm', description: 'Floor y coordinate of the pick face, metres.' },
          capacity: {
            type: 'integer',
            required: false,
            default: 1,
            description: 'How many SKUs the location holds (pick faces); 0 blocks it.',
          },
        },
      },
    },
  },
});

/** A warehouse dataset as `prepare` reads it: `tables.sku_data.rows[i].daily_picks` is a number. */
export type WarehouseDataset = DatasetOf<typeof schemas>;
