import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, AriaComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only the pieces used: the page's bundle carries bars, axes, tooltip and ARIA, not all of ECharts.
echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export interface BarDatum {
  label: string;
  value: number | null;
  comparison: 'better' | 'worse' | 'equal' | null;
  baseline: boolean;
}

/** One KPI across the compared scenarios as bars, coloured like the deltas (better/worse/baseline). */
export default function KpiBarChart({ title, unit, data }: { title: string; unit: string; data: readonly BarDatum[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    const css = getComputedStyle(document.documentElement);
    const color = (name: string) => css.getPropertyValue(name).trim() || '#888';
    const colorOf = (d: BarDatum) =>
      d.baseline ? color('--muted') : d.comparison === 'better' ? color('--ok') : d.comparison === 'worse' ? color('--bad') : color('--accent');
    chart.setOption({
      aria: { enabled: true, label: { description: `${title} in ${unit} by scenario` } },
      animation: false,
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: data.map((d) => d.label), axisLabel: { color: color('--text'), interval: 0, overflow: 'truncate', width: 90 } },
      yAxis: { type: 'value', name: unit, nameTextStyle: { color: color('--muted') }, axisLabel: { color: color('--text') }, splitLine: { lineStyle: { color: color('--border') } } },
      series: [{ type: 'bar', name: title, data: data.map((d) => ({ value: d.value, itemStyle: { color: colorOf(d) } })) }],
    });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.dispose();
    };
  }, [title, unit, data]);
  return <div ref={host} className="chart" role="img" aria-label={`${title} (${unit}) by scenario`} />;
}
