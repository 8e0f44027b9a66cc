import { useMemo } from 'react';
import { ChartView } from '../views/ChartView.tsx';
import { useChartPalette } from './palette.ts';
import { scatterSpec, type ScatterAxis, type ScatterPoint } from './scatter.ts';

/** A scatter of two KPIs (`scatter.ts`), drawn in the theme's palette: the one scatter of the dashboard. */
export function KpiScatter({ points, x, y }: { points: readonly ScatterPoint[]; x: ScatterAxis; y: ScatterAxis }) {
  const palette = useChartPalette();
  const spec = useMemo(() => ({ vega_lite: scatterSpec(points, x, y, palette) }), [points, x, y, palette]);
  const compared = points.some((p) => p.compared);
  return (
    <>
      <ChartView spec={spec} title={`${y.name} against ${x.name}, one point per scenario, the non-dominated ones marked`} />
      <p className="small muted" style={{ margin: '0.25rem 0 0' }}>
        ◆ not dominated (joined by the dashed line), ● dominated{compared ? ', ringed: the compared scenarios' : ''}. A point opens its scenario.
      </p>
    </>
  );
}
