import type { VegaLiteSpec } from '../api/views.ts';
import type { ChartPalette } from './palette.ts';

export interface BarDatum {
  readonly label: string;
  readonly value: number | null;
  readonly comparison: 'better' | 'worse' | 'equal' | null;
  readonly baseline: boolean;
}

const JUDGEMENTS = ['baseline', 'better', 'worse', 'equal'] as const;
const judgement = (d: BarDatum) => (d.baseline ? 'baseline' : (d.comparison ?? 'equal'));

/** Height of one scenario's bar row: the chart grows with the number of scenarios, never squeezes them. */
const ROW = 30;

/**
 * One KPI across the compared scenarios as horizontal bars (a tag reads whole at any width), coloured
 * like the deltas of the cards above: better, worse, equal, and the baseline in grey.
 */
export function kpiBarsSpec(title: string, unit: string, data: readonly BarDatum[], p: ChartPalette): VegaLiteSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: `${title} in ${unit} by scenario`,
    width: 'container',
    height: { step: ROW },
    autosize: { type: 'fit-x', contains: 'padding' },
    data: { values: data.filter((d) => d.value !== null).map((d) => ({ scenario: d.label, value: d.value, judgement: judgement(d) })) },
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      y: { field: 'scenario', type: 'nominal', title: null, sort: null, axis: { labelLimit: 160 } },
      x: { field: 'value', type: 'quantitative', title: unit ? `${title} (${unit})` : title, axis: { format: '~s', tickCount: 5 } },
      color: {
        field: 'judgement',
        type: 'nominal',
        title: null,
        scale: { domain: JUDGEMENTS, range: [p.muted, p.better, p.worse, p.accent] },
        legend: { orient: 'bottom' },
      },
      tooltip: [
        { field: 'scenario' },
        { field: 'value', title: title, format: ',.4~g' },
        { field: 'judgement', title: 'against the baseline' },
      ],
    },
  };
}
