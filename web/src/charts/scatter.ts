import type { VegaLiteSpec } from '../api/views.ts';
import type { ChartPalette } from './palette.ts';

/** One scenario in a scatter of two KPIs. */
export interface ScatterPoint {
  readonly id: string;
  readonly tag: string;
  readonly x: number;
  readonly y: number;
  /** On the non-dominated front of this pair of KPIs. */
  readonly front: boolean;
  /** One of the scenarios the page is about (Compare's picks): ringed and labelled. */
  readonly compared: boolean;
  /** Its scenario page: a click on the point opens it. */
  readonly href: string;
}

export interface ScatterAxis {
  readonly name: string;
  readonly unit: string;
}

/** How many tags one label lists before it counts the rest. */
const TAGS_PER_LABEL = 3;
const FRONT = 'non-dominated';
const DOMINATED = 'dominated';

const axisTitle = (a: ScatterAxis) => (a.unit ? `${a.name} (${a.unit})` : a.name);
const listed = (tags: readonly string[]) =>
  tags.length <= TAGS_PER_LABEL ? tags.join(', ') : `${tags.slice(0, TAGS_PER_LABEL).join(', ')} +${tags.length - TAGS_PER_LABEL}`;

/** The points grouped by position: scenarios with equal KPI values share one mark's place. */
function byPosition(points: readonly ScatterPoint[]): Map<string, ScatterPoint[]> {
  const groups = new Map<string, ScatterPoint[]>();
  for (const p of points) {
    const key = `${p.x}|${p.y}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return groups;
}

/**
 * Labelled points closer than this share of each axis's span print one label: their tags would overlap
 * (a tag is some 60 px wide and 14 px high on a 300 px high chart that is at least 300 px wide).
 */
const NEAR = { x: 0.12, y: 0.07 } as const;

/** The points in groups of neighbours, each group as close to its first point as `NEAR` says. */
function near(points: readonly ScatterPoint[]): ScatterPoint[][] {
  const span = (vs: number[]) => Math.max(...vs) - Math.min(...vs) || 1;
  const sx = span(points.map((p) => p.x));
  const sy = span(points.map((p) => p.y));
  const groups: ScatterPoint[][] = [];
  for (const p of points) {
    const group = groups.find(([first]) => Math.abs(first!.x - p.x) <= NEAR.x * sx && Math.abs(first!.y - p.y) <= NEAR.y * sy);
    if (group) group.push(p);
    else groups.push([p]);
  }
  return groups;
}

/**
 * Two KPIs of scenarios as a Vega-Lite scatter, drawn alike wherever the dashboard shows one (Compare's
 * trade-off, an experiment's two KPIs): the non-dominated points as diamonds in the accent colour joined
 * by a dashed line, the others as grey circles, the compared ones ringed; axes with tick values and
 * titles outside the plot. Labels name the non-dominated and compared points; scenarios at or near the
 * same place share one label ("a, b +2") instead of printing over each other. Each point's tooltip lists
 * every scenario at its place, and a click opens its scenario.
 */
export function scatterSpec(points: readonly ScatterPoint[], x: ScatterAxis, y: ScatterAxis, p: ChartPalette): VegaLiteSpec {
  const groups = [...byPosition(points).values()];
  const rows = points.map((pt) => ({
    tag: pt.tag,
    x: pt.x,
    y: pt.y,
    set: pt.front ? FRONT : DOMINATED,
    compared: pt.compared,
    href: pt.href,
    together: listed(groups.find((g) => g.includes(pt))!.map((q) => q.tag)),
    description: `${pt.tag}: ${x.name} ${pt.x}, ${y.name} ${pt.y}${pt.front ? `, ${FRONT}` : ''}${pt.compared ? ', compared' : ''}`,
  }));
  const xs = points.map((q) => q.x);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const sideOf = (v: number): 'left' | 'center' | 'right' => (hi === lo ? 'center' : v - lo < (hi - lo) / 3 ? 'left' : hi - v < (hi - lo) / 3 ? 'right' : 'center');
  const labels = near(points.filter((q) => q.front || q.compared)).map((g) => ({
    x: g[0]!.x,
    y: g[0]!.y,
    side: sideOf(g[0]!.x),
    label: listed(g.map((q) => q.tag)),
    description: `label: ${g.map((q) => q.tag).join(', ')}`,
  }));
  const position = {
    // Padding keeps the points at the ends (and their labels) off the frame.
    x: { field: 'x', type: 'quantitative', title: axisTitle(x), scale: { zero: false, padding: 24 }, axis: { format: '~s', tickCount: 8 } },
    y: { field: 'y', type: 'quantitative', title: axisTitle(y), scale: { zero: false, padding: 24 }, axis: { format: '~s', tickCount: 6 } },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 'container',
    height: 300,
    autosize: { type: 'fit-x', contains: 'padding' },
    // A layer without rows is left out (Vega warns of an empty extent otherwise).
    layer: [
      {
        name: 'front',
        data: { values: rows.filter((r) => r.set === FRONT).sort((a, b) => a.x - b.x) },
        mark: { type: 'line', strokeDash: [4, 3], strokeWidth: 1.5, color: p.accent, opacity: 0.7 },
        encoding: { ...position, order: { field: 'x', type: 'quantitative' } },
      },
      {
        name: 'compared',
        data: { values: rows.filter((r) => r.compared).map((r) => ({ ...r, ring: `compared: ${r.tag}` })) },
        mark: { type: 'point', filled: false, size: 420, strokeWidth: 2, color: p.text, opacity: 1 },
        encoding: { ...position, description: { field: 'ring' } },
      },
      {
        name: 'points',
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 110, opacity: 1, cursor: 'pointer' },
        encoding: {
          ...position,
          color: { field: 'set', type: 'nominal', title: null, scale: { domain: [FRONT, DOMINATED], range: [p.accent, p.muted] }, legend: { orient: 'bottom' } },
          shape: { field: 'set', type: 'nominal', title: null, scale: { domain: [FRONT, DOMINATED], range: ['diamond', 'circle'] } },
          href: { field: 'href' },
          description: { field: 'description' },
          tooltip: [
            { field: 'together', title: 'scenario' },
            { field: 'x', title: x.name, format: ',.4~g' },
            { field: 'y', title: y.name, format: ',.4~g' },
          ],
        },
      },
      // A label runs right of a point in the left third, left of one in the right third, centred
      // between: never off the chart's edge.
      ...(['left', 'center', 'right'] as const).map((side) => ({
        name: `labels-${side}`,
        data: { values: labels.filter((l) => l.side === side) },
        mark: { type: 'text', align: side, dx: side === 'left' ? -4 : side === 'right' ? 4 : 0, dy: -14, fontSize: 11, fontWeight: 600 },
        encoding: { ...position, text: { field: 'label' }, description: { field: 'description' } },
      })),
    ].filter((layer) => layer.data.values.length > 0),
  };
}
