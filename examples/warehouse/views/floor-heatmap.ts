import { defineResultView } from '../../../src/domain/views.js';
import type { Location, WarehouseData } from '../model.js';
import { slotting, type SlottingResult } from '../result.js';

// A type, not an interface: chart rows are records of cells, which an interface's fields do not promise.
type Face = {
  readonly plan: 'before' | 'after';
  readonly x: number;
  readonly y: number;
  readonly zone: string;
  picks: number;
};

/** Daily picks per pick face (levels of one face add up) of SKUs placed by `locationOf`. */
function picksByFace(plan: Face['plan'], data: WarehouseData, placed: Iterable<readonly [string, string | null]>): Face[] {
  const faces = new Map<string, Face>();
  const faceOf = (location: Location) => {
    const id = `${location.x},${location.y}`;
    let face = faces.get(id);
    if (!face) faces.set(id, (face = { plan, x: location.x, y: location.y, zone: location.zone, picks: 0 }));
    return face;
  };
  for (const location of data.locations) faceOf(location);
  for (const [sku, locationId] of placed) {
    const location = locationId === null ? undefined : data.locationById.get(locationId);
    const picks = data.skuById.get(sku)?.dailyPicks;
    if (location && picks !== undefined) faceOf(location).picks += picks;
  }
  return [...faces.values()];
}

/** The floor plan coloured by daily picks, today's slotting beside the result's: where the walking goes. */
export const floorHeatmap = defineResultView({
  name: 'floor-heatmap',
  title: 'Floor heat map: daily picks before and after',
  kind: 'chart',
  appliesTo: slotting,
  render: (result: SlottingResult, data: WarehouseData) => {
    const before = picksByFace('before', data, data.skus.map((sku) => [sku.id, sku.currentLocation] as const));
    const after = picksByFace('after', data, result.assignments.map((a) => [a.sku, a.location] as const));
    return {
      vegaLite: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        data: { name: 'faces' },
        facet: { column: { field: 'plan', type: 'nominal', sort: ['before', 'after'], title: null } },
        spec: {
          mark: { type: 'square', filled: true, size: 60 },
          encoding: {
            x: { field: 'x', type: 'quantitative', title: 'x (m)' },
            y: { field: 'y', type: 'quantitative', title: 'y (m)' },
            color: { field: 'picks', type: 'quantitative', title: 'Daily picks', scale: { scheme: 'orangered' } },
            tooltip: [{ field: 'zone' }, { field: 'x' }, { field: 'y' }, { field: 'picks', format: ',.1f' }],
          },
        },
      },
      datasets: { faces: [...before, ...after] },
    };
  },
});
