import type { BetterWhen, Scenario } from '../api/types.ts';
import type { VegaLiteSpec } from '../api/views.ts';
import { better } from '../pages/scenario-facts.ts';

export interface ParetoPoint {
  id: string;
  tag: string;
  x: number;
  y: number;
  /** Not dominated by any other point: no other is at least as good on both KPIs and better on one. */
  front: boolean;
}

export interface KpiAxis {
  name: string;
  unit: string;
  better_when: BetterWhen;
}

/** The complete scenarios that report both KPIs, each marked on the front or not. */
export function paretoPoints(scenarios: readonly Scenario[], x: KpiAxis, y: KpiAxis): ParetoPoint[] {
  const points = scenarios.flatMap((s) => {
    const vx = s.kpis[x.name]?.value;
    const vy = s.kpis[y.name]?.value;
    return s.status === 'COMPLETE' && typeof vx === 'number' && typeof vy === 'number' ? [{ id: s.id, tag: s.tag, x: vx, y: vy }] : [];
  });
  const atLeastAsGood = (d: BetterWhen, a: number, b: number) => a === b || better(d, a, b);
  const dominates = (a: (typeof points)[number], b: (typeof points)[number]) =>
    atLeastAsGood(x.better_when, a.x, b.x) && atLeastAsGood(y.better_when, a.y, b.y) && (better(x.better_when, a.x, b.x) || better(y.better_when, a.y, b.y));
  return points.map((p) => ({ ...p, front: !points.some((q) => q !== p && dominates(q, p)) }));
}

/** Every KPI the complete scenarios report, with its unit and direction (first seen wins). */
export function kpiAxes(scenarios: readonly Scenario[]): KpiAxis[] {
  const axes = new Map<string, KpiAxis>();
  for (const s of scenarios) {
    if (s.status !== 'COMPLETE') continue;
    for (const k of Object.values(s.kpis)) if (!axes.has(k.name)) axes.set(k.name, { name: k.name, unit: k.unit, better_when: k.better_when });
  }
  return [...axes.values()];
}

const title = (a: KpiAxis) => (a.unit ? `${a.name} (${a.unit})` : a.name);

/** The scatter as a Vega-Lite spec: drawn by the same renderer as the domain's chart views. */
export function paretoSpec(points: readonly ParetoPoint[], x: KpiAxis, y: KpiAxis): VegaLiteSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 'container',
    height: 300,
    autosize: { type: 'fit-x', contains: 'padding' },
    data: { values: points.map((p) => ({ tag: p.tag, x: p.x, y: p.y, set: p.front ? 'non-dominated' : 'dominated' })) },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 90 },
        encoding: {
          // Padding keeps the points at the ends (and their labels) off the frame.
          x: { field: 'x', type: 'quantitative', title: title(x), scale: { zero: false, padding: 24 } },
          y: { field: 'y', type: 'quantitative', title: title(y), scale: { zero: false, padding: 24 } },
          color: { field: 'set', type: 'nominal', title: null, scale: { domain: ['non-dominated', 'dominated'], range: ['#d0661a', '#7b8794'] } },
          shape: { field: 'set', type: 'nominal', title: null, scale: { domain: ['non-dominated', 'dominated'], range: ['diamond', 'circle'] } },
          tooltip: [
            { field: 'tag', title: 'scenario' },
            { field: 'x', title: x.name, format: ',.4~g' },
            { field: 'y', title: y.name, format: ',.4~g' },
          ],
        },
      },
      {
        mark: { type: 'text', dy: -10, fontSize: 11 },
        transform: [{ filter: "datum.set === 'non-dominated'" }],
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 'tag' } },
      },
    ],
  };
}
