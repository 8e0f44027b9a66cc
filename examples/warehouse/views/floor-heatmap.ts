import { defineResultView } from '../../../src/domain/views.js';
import type { Location, WarehouseData } from '../model.js';
import { ORIGIN, slotting, type SlottingResult } from '../result.js';

type Plan = 'before' | 'after';

// Types, not interfaces: chart rows are records of cells, which an interface's fields do not promise.
/** One pick face (the levels of one floor position add up): a cell of the floor, in metres. */
type Face = {
  readonly kind: 'face';
  readonly plan: Plan;
  readonly x: number;
  readonly y: number;
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
  readonly zone: string;
  /** The locations at this face, for the tooltip. */
  location: string;
  picks: number;
};

/** Where pickers start and end each trip, drawn on both plans. */
type Depot = { readonly kind: 'depot'; readonly plan: Plan; readonly x: number; readonly y: number; readonly label: string };

/** A face's cell: this share of the distance to the next position, so neighbouring cells keep a gap. */
const CELL_SHARE = 0.8;
/** Width of each plan's panel; its height follows the floor's proportions (the dashboard scales both). */
const PANEL_WIDTH = 420;

/** The smallest distance between two distinct values: the floor's pitch along one axis (1 m when there is one value). */
function pitch(values: Iterable<number>): number {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < sorted.length; i++) step = Math.min(step, sorted[i]! - sorted[i - 1]!);
  return Number.isFinite(step) ? step : 1;
}

/** The locations of a face as a tooltip reads them: all of them when few, else the first and last. */
function locationText(ids: readonly string[]): string {
  return ids.length <= 4 ? ids.join(', ') : `${ids[0]} … ${ids[ids.length - 1]} (${ids.length} locations)`;
}

/** Daily picks per pick face of SKUs placed by `placed` (sku, location id or null). */
function picksByFace(plan: Plan, data: WarehouseData, placed: Iterable<readonly [string, string | null]>): Face[] {
  const half = { x: (pitch(data.locations.map((l) => l.x)) * CELL_SHARE) / 2, y: (pitch(data.locations.map((l) => l.y)) * CELL_SHARE) / 2 };
  const faces = new Map<string, Face>();
  const ids = new Map<Face, string[]>();
  const faceOf = (location: Location) => {
    const key = `${location.x},${location.y}`;
    let face = faces.get(key);
    if (!face) {
      const { x, y, zone } = location;
      face = { kind: 'face', plan, x, y, x0: x - half.x, x1: x + half.x, y0: y - half.y, y1: y + half.y, zone, location: '', picks: 0 };
      faces.set(key, face);
      ids.set(face, []);
    }
    return face;
  };
  for (const location of data.locations) ids.get(faceOf(location))!.push(location.id);
  for (const [sku, locationId] of placed) {
    const location = locationId === null ? undefined : data.locationById.get(locationId);
    const picks = data.skuById.get(sku)?.dailyPicks;
    if (location && picks !== undefined) faceOf(location).picks += picks;
  }
  for (const [face, faceIds] of ids) face.location = locationText(faceIds);
  return [...faces.values()];
}

/** The floor's extent in metres, depot included: the panel keeps its proportions. */
function extent(points: readonly { x: number; y: number }[]): { width: number; height: number } {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return { width: Math.max(1, Math.max(...xs) - Math.min(...xs)), height: Math.max(1, Math.max(...ys) - Math.min(...ys)) };
}

/**
 * The floor plan coloured by daily picks, today's slotting beside the result's, with the depot marked:
 * where the walking goes. Each face is a cell in metres, so the cells grow with the panel. The colour
 * scale is left to the dashboard's theme (its `ramp`), which keeps the busiest faces the most visible
 * on a light and on a dark page. The two plans are a wrapped facet (`columns: 2`): the dashboard puts
 * them side by side where they fit and under each other on a phone.
 */
export const floorHeatmap = defineResultView({
  name: 'floor-heatmap',
  title: 'Floor heat map: daily picks before and after',
  kind: 'chart',
  appliesTo: slotting,
  render: (result: SlottingResult, data: WarehouseData) => {
    const before = picksByFace('before', data, data.skus.map((sku) => [sku.id, sku.currentLocation] as const));
    const after = picksByFace('after', data, result.assignments.map((a) => [a.sku, a.location] as const));
    const at = result.depot ?? ORIGIN;
    const depots: Depot[] = (['before', 'after'] as const).map((plan) => ({ kind: 'depot', plan, x: at.x, y: at.y, label: 'Depot' }));
    const floor = extent([...before.flatMap((f) => [{ x: f.x0, y: f.y0 }, { x: f.x1, y: f.y1 }]), at]);
    // No grid lines: the cells are the grid.
    const x = { field: 'x0', type: 'quantitative', title: 'x (m)', scale: { nice: false }, axis: { grid: false } };
    const y = { field: 'y0', type: 'quantitative', title: 'y (m)', scale: { nice: false }, axis: { grid: false } };
    return {
      vegaLite: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        data: { name: 'floor' },
        facet: { field: 'plan', type: 'nominal', sort: ['before', 'after'], title: null },
        columns: 2,
        spec: {
          width: PANEL_WIDTH,
          height: Math.round((PANEL_WIDTH * floor.height) / floor.width),
          layer: [
            {
              transform: [{ filter: { field: 'kind', equal: 'face' } }],
              mark: { type: 'rect', cornerRadius: 2 },
              encoding: {
                x,
                x2: { field: 'x1' },
                y,
                y2: { field: 'y1' },
                color: { field: 'picks', type: 'quantitative', title: 'Daily picks' },
                tooltip: [
                  { field: 'location', title: 'Location' },
                  { field: 'zone', title: 'Zone' },
                  { field: 'x', title: 'x (m)' },
                  { field: 'y', title: 'y (m)' },
                  { field: 'picks', title: 'Daily picks', format: ',.1f' },
                ],
              },
            },
            {
              transform: [{ filter: { field: 'kind', equal: 'depot' } }],
              mark: { type: 'point', shape: 'triangle-up', filled: true, size: 220, stroke: null },
              encoding: {
                x: { ...x, field: 'x' },
                y: { ...y, field: 'y' },
                tooltip: [{ field: 'label', title: 'Depot' }, { field: 'x', title: 'x (m)' }, { field: 'y', title: 'y (m)' }],
              },
            },
            {
              transform: [{ filter: { field: 'kind', equal: 'depot' } }],
              mark: { type: 'text', align: 'left', dx: 9, dy: -9, fontWeight: 600 },
              encoding: { x: { ...x, field: 'x' }, y: { ...y, field: 'y' }, text: { field: 'label' } },
            },
          ],
        },
      },
      datasets: { floor: [...before, ...after, ...depots] },
    };
  },
});
