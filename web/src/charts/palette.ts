import { useTheme, type Theme } from '../theme.ts';

/**
 * The colours a chart draws with, per theme. They are the page's own colours (the custom properties of
 * styles.css, repeated here because a chart is drawn from a spec, not from CSS): text, lines and the
 * better/worse colours of a chart read like the page around it.
 */
export interface ChartPalette {
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
  readonly accent: string;
  readonly better: string;
  readonly worse: string;
  /** Busy-ness, low to high (a heat map's quantitative colour): the high end is the one that stands out. */
  readonly ramp: { readonly scheme: string; readonly extent: readonly [number, number] };
  /** The tooltip's own theme (vega-tooltip's): dark text on light, or light on dark. */
  readonly tooltip: 'light' | 'dark';
}

const LIGHT: ChartPalette = {
  text: '#1b1f24',
  muted: '#4f5a66',
  grid: '#c9d1da',
  accent: '#0b57d0',
  better: '#146c2e',
  worse: '#b3261e',
  // Pale to deep red: on a white card the busiest cells are the darkest.
  ramp: { scheme: 'orangered', extent: [0.05, 1] },
  tooltip: 'light',
};

const DARK: ChartPalette = {
  text: '#e6e9ee',
  muted: '#a9b3bf',
  grid: '#3a424d',
  accent: '#8ab4f8',
  better: '#7ee2a0',
  worse: '#ffb4ab',
  // Dim purple to bright yellow: on a dark card the busiest cells are the brightest (orangered's deep red
  // end would sink into the background).
  ramp: { scheme: 'inferno', extent: [0.25, 1] },
  tooltip: 'dark',
};

export function chartPalette(theme: Theme): ChartPalette {
  return theme === 'dark' ? DARK : LIGHT;
}

/** The palette of the theme the page shows. */
export const useChartPalette = (): ChartPalette => chartPalette(useTheme());
