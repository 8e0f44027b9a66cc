import { describe, expect, it } from 'vitest';
import type { VegaLiteSpec } from '../src/api/views.ts';
import { fitsToBox, fitToBox } from '../src/charts/fit-facets.ts';

/** A domain's comparison view: bars per zone, coloured by scenario, the legend where Vega-Lite puts it (beside them). */
const byScenario = {
  mark: 'bar',
  config: { legend: { labelFontSize: 11 } },
  encoding: { x: { field: 'zone', type: 'nominal' }, y: { field: 'travel', type: 'quantitative' }, color: { field: 'scenario', type: 'nominal' } },
} as unknown as VegaLiteSpec;

describe('a chart legend on a phone (issue 41, friction 7)', () => {
  it('goes under the marks in as many columns as the box holds, keeping the spec’s own legend settings', () => {
    expect(fitsToBox(byScenario)).toBe(true);
    const fitted = fitToBox(byScenario, { width: 328, viewportHeight: 844 }) as { config: { legend: Record<string, unknown> } };
    expect(fitted.config.legend).toEqual({ labelFontSize: 11, orient: 'bottom', direction: 'horizontal', columns: 2, labelLimit: 90 });
  });

  it('stays where the spec puts it on a wide box, before the box is measured, and in a chart without one', () => {
    expect(fitToBox(byScenario, { width: 1200, viewportHeight: 900 })).toBe(byScenario);
    expect(fitToBox(byScenario, { width: 0, viewportHeight: 900 })).toBe(byScenario);
    const plain = { mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, color: { value: 'red' } } } as unknown as VegaLiteSpec;
    expect(fitsToBox(plain)).toBe(false);
    expect(fitToBox(plain, { width: 328, viewportHeight: 844 })).toBe(plain);
    const layered = { layer: [{ mark: 'point', encoding: { shape: { field: 'set', type: 'nominal' } } }] } as unknown as VegaLiteSpec;
    expect(fitsToBox(layered)).toBe(true);
  });
});
