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
 * Two KPIs of scenarios as a Vega-Lite scatter, drawn alike wherever the dashboard shows one (Compare's
 * trade-off, an experiment's two KPIs): the non-dominated points as diamonds in the accent colour joined
 * by a dashed line, the others as grey circles, the compared ones ringed; axes with tick values and
 * titles outside the plot. Labels name the non-dominated and compared points; scenarios at the same
 * place share one label ("a, b +2") instead of printing over each other. Each point's tooltip lists
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
  const labels = groups.flatMap((g) => {
    const named = g.filter((q) => q.front || q.compared);
    return named.length === 0 ? [] : [{ x: g[0]!.x, y: g[0]!.y, label: listed(named.map((q) => q.tag)) }];
  });
  const position = {
    // Padding keeps the points at the ends (and their labels) off the frame.
    x: { field: 'x', type: 'quantitative', title: axisTitle(x), scale: { zero: false, padding: 24 }, axis: { format: '~s' } },
    y: { field: 'y', type: 'quantitative', title: axisTitle(y), scale: { zero: false, padding: 24 }, axis: { format: '~s' } },
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
        data: { values: rows.filter((r) => r.compared) },
        mark: { type: 'point', filled: false, size: 420, strokeWidth: 2, color: p.text },
        encoding: position,
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
      {
        name: 'labels',
        data: { values: labels },
        mark: { type: 'text', dy: -14, fontSize: 11, fontWeight: 600 },
        encoding: { ...position, text: { field: 'label' } },
      },
    ].filter((layer) => layer.data.values.length > 0),
  };
}
