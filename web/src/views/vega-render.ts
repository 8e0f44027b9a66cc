import embed, { type Result } from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import type { VegaLiteSpec } from '../api/views.ts';
import { chartConfig } from '../charts/chart-config.ts';
import type { ChartPalette } from '../charts/palette.ts';

/**
 * Draws a Vega-Lite spec into `host` as SVG, in the dashboard's chart config for the theme. Loaded only
 * by a chart (dynamic import), so the first load of the app carries none of Vega. Expressions are
 * interpreted from their syntax tree (`ast: true` with vega-interpreter): no `new Function`, so the page
 * needs no 'unsafe-eval'.
 */
export async function renderVegaLite(host: HTMLElement, spec: VegaLiteSpec, palette: ChartPalette): Promise<() => void> {
  const result: Result = await embed(host, spec, {
    mode: 'vega-lite',
    ast: true,
    expr: expressionInterpreter,
    renderer: 'svg',
    actions: false,
    defaultStyle: false,
    config: chartConfig(palette),
    tooltip: { theme: palette.tooltip },
  });
  return () => result.finalize();
}
