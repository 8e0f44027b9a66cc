import type { VegaLiteSpec } from '../api/views.ts';
import type { ChartPalette } from './palette.ts';

/** One value of an experiment's axis and a KPI's statistics over the scenarios that had it. */
export interface BandPoint {
  readonly value: string | number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/**
 * A KPI over one axis of an experiment: its mean as a line with points, inside the min–max band, with
 * tick values on both axes. A numeric axis is drawn to scale; any other in the order of its values.
 */
export function meanBandSpec(kpi: string, axis: string, points: readonly BandPoint[], p: ChartPalette): VegaLiteSpec {
  const numeric = points.every((pt) => typeof pt.value === 'number');
  const x = numeric
    ? { field: 'value', type: 'quantitative', title: axis, scale: { zero: false, nice: false }, axis: { format: '~s', tickCount: Math.min(points.length, 6) } }
    : { field: 'value', type: 'ordinal', title: axis, sort: null, axis: { labelAngle: 0, labelLimit: 70 } };
  const y = { type: 'quantitative', title: kpi, scale: { zero: false }, axis: { format: '~s', tickCount: 4 } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 'container',
    height: 140,
    autosize: { type: 'fit-x', contains: 'padding' },
    data: { values: points.map((pt) => ({ ...pt })) },
    encoding: { x },
    layer: [
      { mark: { type: 'area', opacity: 0.18, color: p.accent }, encoding: { y: { ...y, field: 'min' }, y2: { field: 'max' } } },
      {
        mark: { type: 'line', point: { filled: true, size: 40 }, color: p.accent, strokeWidth: 2 },
        encoding: {
          y: { ...y, field: 'mean' },
          tooltip: [
            { field: 'value', title: axis },
            { field: 'mean', format: ',.4~g' },
            { field: 'min', format: ',.4~g' },
            { field: 'max', format: ',.4~g' },
          ],
        },
      },
    ],
  };
}
