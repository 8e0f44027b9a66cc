import { useMemo } from 'react';
import { ChartView } from '../views/ChartView.tsx';
import { kpiBarsSpec, type BarDatum } from './kpi-bars.ts';
import { useChartPalette } from './palette.ts';

/** One KPI across the compared scenarios as bars (`kpi-bars.ts`), in the theme's palette. */
export function KpiBars({ title, unit, data }: { title: string; unit: string; data: readonly BarDatum[] }) {
  const palette = useChartPalette();
  const spec = useMemo(() => ({ vega_lite: kpiBarsSpec(title, unit, data, palette) }), [title, unit, data, palette]);
  return <ChartView spec={spec} title={`${title} (${unit}) by scenario`} />;
}
