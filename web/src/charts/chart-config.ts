import type { ChartPalette } from './palette.ts';

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif";

/** Spacing between the panels of a faceted chart; `fit-facets.ts` lays panels out with the same figure. */
export const FACET_SPACING = 20;

/**
 * The one Vega-Lite config every chart of the dashboard is drawn with (the domain's views and the
 * dashboard's own scatters and bars): the page's font and colours in either theme, so text, axes,
 * legends and marks never stay black on a dark card, and a chart looks like its neighbours.
 */
export function chartConfig(p: ChartPalette): Record<string, unknown> {
  const label = { labelColor: p.text, titleColor: p.text, labelFont: FONT, titleFont: FONT };
  return {
    background: 'transparent',
    font: FONT,
    padding: 4,
    view: { stroke: p.grid },
    mark: { color: p.accent },
    text: { color: p.text, font: FONT, fontSize: 11 },
    title: { color: p.text, subtitleColor: p.muted, font: FONT, anchor: 'start' },
    axis: { ...label, domainColor: p.muted, tickColor: p.muted, gridColor: p.grid, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
    // Symbols of a legend with no colour scale (a size legend) in the page's grey, not Vega's black.
    legend: { ...label, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600, symbolBaseFillColor: p.muted, symbolBaseStrokeColor: p.muted },
    header: { ...label, labelFontSize: 13, labelFontWeight: 600, titleFontSize: 13 },
    facet: { spacing: FACET_SPACING },
    range: { ramp: p.ramp, heatmap: p.ramp },
  };
}
