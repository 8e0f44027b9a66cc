import embed, { type Result } from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import type { VegaLiteSpec } from '../api/views.ts';

/**
 * Draws a Vega-Lite spec into `host` as SVG. Loaded only by a chart (dynamic import), so the first
 * load of the app carries none of Vega. Expressions are interpreted from their syntax tree
 * (`ast: true` with vega-interpreter): no `new Function`, so the page needs no 'unsafe-eval'.
 */
export async function renderVegaLite(host: HTMLElement, spec: VegaLiteSpec, dark: boolean): Promise<() => void> {
  const result: Result = await embed(host, spec, {
    mode: 'vega-lite',
    ast: true,
    expr: expressionInterpreter,
    renderer: 'svg',
    actions: false,
    defaultStyle: false,
    theme: dark ? 'dark' : undefined,
    config: dark ? { background: 'transparent' } : { background: 'transparent' },
  });
  return () => result.finalize();
}
