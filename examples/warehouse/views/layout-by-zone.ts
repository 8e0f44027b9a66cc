import { defineDatasetView } from '../../../src/domain/views.js';
import type { WarehouseDataset } from '../schemas.js';

/**
 * The floor plan: one mark per pick face (locations on several levels share one), coloured by zone and
 * sized by how many slots it holds.
 */
export const layoutByZone = defineDatasetView({
  name: 'layout-by-zone',
  title: 'Layout by zone',
  kind: 'chart',
  description: 'The storage locations on the floor, by zone.',
  render: (dataset: WarehouseDataset) => {
    const faces = new Map<string, { x: number; y: number; zone: string; slots: number }>();
    for (const row of dataset.tables.warehouse_layout.rows) {
      const id = `${row.x},${row.y},${row.zone}`;
      const face = faces.get(id);
      if (face) face.slots += row.capacity;
      else faces.set(id, { x: row.x, y: row.y, zone: row.zone, slots: row.capacity });
    }
    return {
      vegaLite: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        data: { name: 'faces' },
        mark: { type: 'square', filled: true },
        encoding: {
          x: { field: 'x', type: 'quantitative', title: 'x (m)' },
          y: { field: 'y', type: 'quantitative', title: 'y (m)' },
          color: { field: 'zone', type: 'nominal', title: 'Zone' },
          size: { field: 'slots', type: 'quantitative', title: 'Slots' },
          tooltip: [{ field: 'zone' }, { field: 'x' }, { field: 'y' }, { field: 'slots' }],
        },
      },
      datasets: { faces: faces.values() },
    };
  },
});
