import { useMemo } from 'react';
import { meanBandSpec } from '../charts/mean-band.ts';
import { useChartPalette } from '../charts/palette.ts';
import { formatNumber } from '../format.ts';
import type { LabelOf } from '../params/parameter-labels.ts';
import { ChartView } from '../views/ChartView.tsx';
import { shown } from './results.ts';

export interface AxisSummary {
  path: string;
  values: { value: unknown; kpis: Record<string, { mean: number; min: number; max: number; count: number }> }[];
}

/**
 * One small chart per KPI and axis: the KPI's mean over the axis values (a line) inside its min-max
 * band, from the experiment's summary, drawn like every chart of the dashboard (`charts/mean-band.ts`).
 */
export function SmallMultiples({ axes, kpis, labelOf }: { axes: readonly AxisSummary[]; kpis: readonly string[]; labelOf: LabelOf }) {
  return (
    <div className="multiples" data-testid="small-multiples">
      {kpis.flatMap((kpi) => axes.map((axis) => <Multiple key={`${kpi}|${axis.path}`} kpi={kpi} axis={axis} axisLabel={labelOf(axis.path)} />))}
    </div>
  );
}

/** `axisLabel` is the varied parameter's declared label ("Cooling rate"), never its path (`algo_params.cooling_rate`). */
function Multiple({ kpi, axis, axisLabel }: { kpi: string; axis: AxisSummary; axisLabel: string }) {
  const palette = useChartPalette();
  const points = useMemo(
    () =>
      axis.values.flatMap((v) => {
        const stat = v.kpis[kpi];
        return stat ? [{ value: typeof v.value === 'number' ? v.value : shown(v.value), mean: stat.mean, min: stat.min, max: stat.max }] : [];
      }),
    [axis, kpi],
  );
  const spec = useMemo(() => ({ vega_lite: meanBandSpec(kpi, axisLabel, points, palette) }), [kpi, axisLabel, points, palette]);
  if (points.length === 0) return null;
  const summary = points.map((p) => `${p.value}: mean ${formatNumber(p.mean)} (${formatNumber(p.min)} to ${formatNumber(p.max)})`).join('; ');
  return (
    <figure className="kpi-card" style={{ margin: 0 }}>
      <figcaption className="small">
        <strong>{kpi}</strong> by {axisLabel}
      </figcaption>
      <ChartView spec={spec} title={`${kpi} by ${axisLabel}: ${summary}`} />
    </figure>
  );
}
