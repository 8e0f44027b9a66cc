import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { VegaLiteSpec } from '../src/api/views.ts';
import { kpiBarsSpec } from '../src/charts/kpi-bars.ts';
import { chartPalette } from '../src/charts/palette.ts';
import { scatterSpec, type ScatterPoint } from '../src/charts/scatter.ts';
import { ThemeContext, type Theme } from '../src/theme.ts';
import { ChartView } from '../src/views/ChartView.tsx';

const dark = chartPalette('dark');

function inTheme(theme: Theme, ui: ReactNode) {
  return render(<ThemeContext.Provider value={theme}>{ui}</ThemeContext.Provider>);
}

async function drawn(name: string): Promise<HTMLElement> {
  const chart = screen.getByRole('figure', { name });
  await waitFor(() => expect(chart.dataset.rendered).toBe('true'), { timeout: 10_000 });
  return chart;
}

/** The page lays out nothing here (happy-dom): the chart's box is given its width as a browser would. */
function boxWidth(width: number): void {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
}
const windowHeight = Object.getOwnPropertyDescriptor(window, 'innerHeight');
afterEach(() => {
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  if (windowHeight) Object.defineProperty(window, 'innerHeight', windowHeight);
});

const point = (id: string, x: number, y: number, more: Partial<ScatterPoint> = {}): ScatterPoint => ({
  id,
  tag: id,
  x,
  y,
  front: false,
  compared: false,
  href: `#/s/main/scenarios/${id}`,
  ...more,
});

/** The rows of the named layers of a spec (`labels` names the three label layers); none when left out. */
const layerData = (spec: VegaLiteSpec, name: string) =>
  (spec.layer as { name: string; data: { values: Record<string, unknown>[] } }[]).filter((l) => l.name === name || l.name.startsWith(`${name}-`)).flatMap((l) => l.data.values);

describe('the charts in the dark theme (fix 8)', () => {
  it('draws text marks, axis labels and titles in the page text colour, not black', async () => {
    const spec = {
      vega_lite: {
        data: { values: [{ x: 1, y: 2, tag: 'a' }, { x: 3, y: 1, tag: 'b' }] },
        layer: [
          { mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } },
          { mark: { type: 'text', dy: -10 }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 'tag' } } },
        ],
      },
    };
    inTheme('dark', <ChartView spec={spec} title="Labels" />);
    const chart = await drawn('Labels');
    const labels = [...chart.querySelectorAll('.role-mark text')];
    expect(labels.map((t) => t.textContent)).toEqual(['a', 'b']);
    for (const text of chart.querySelectorAll('text')) expect(text.getAttribute('fill'), text.textContent ?? '').toBe(dark.text);
  });

  it('draws the symbols of a size legend in the page grey, not black', async () => {
    const spec = {
      vega_lite: {
        data: { values: [{ x: 1, zone: 'A', slots: 1 }, { x: 2, zone: 'B', slots: 4 }] },
        mark: { type: 'square', filled: true },
        encoding: { x: { field: 'x', type: 'quantitative' }, color: { field: 'zone', type: 'nominal' }, size: { field: 'slots', type: 'quantitative', title: 'Slots' } },
      },
    };
    inTheme('dark', <ChartView spec={spec} title="Slots" />);
    const chart = await drawn('Slots');
    const slots = [...chart.querySelectorAll('.role-legend')].find((l) => l.textContent?.includes('Slots'))!;
    const symbols = [...slots.querySelectorAll('.role-legend-symbol path')];
    expect(symbols.length).toBeGreaterThan(0);
    for (const symbol of symbols) expect(symbol.getAttribute('fill')).toBe(dark.muted);
  });

  it('colours a heat map so that the busiest cell stands out most from a dark card', async () => {
    const spec = {
      vega_lite: {
        data: { values: [{ x: 1, picks: 0 }, { x: 2, picks: 50 }, { x: 3, picks: 100 }] },
        mark: { type: 'square', filled: true },
        encoding: { x: { field: 'x', type: 'quantitative' }, color: { field: 'picks', type: 'quantitative' } },
      },
    };
    inTheme('dark', <ChartView spec={spec} title="Heat" />);
    const chart = await drawn('Heat');
    const fills = [...chart.querySelectorAll('.role-mark path')].map((p) => p.getAttribute('fill')!);
    const luminance = (css: string) => {
      const [r, g, b] = (css.match(/\d+/g) ?? []).map(Number) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    expect(fills).toHaveLength(3);
    expect(luminance(fills[2]!)).toBeGreaterThan(luminance(fills[1]!));
    expect(luminance(fills[1]!)).toBeGreaterThan(luminance(fills[0]!));
  });
});

describe('a faceted chart laid out for its box (fix 9)', () => {
  const facets = {
    vega_lite: {
      data: { values: [{ plan: 'before', x: 1, y: 1 }, { plan: 'after', x: 2, y: 2 }] },
      facet: { field: 'plan', type: 'nominal', sort: ['before', 'after'] },
      columns: 2,
      spec: { width: 400, height: 300, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } },
    },
  };
  /** Where each panel's header sits: [x, y] of every facet cell. */
  const panels = (chart: HTMLElement) =>
    [...chart.querySelectorAll('.role-scope > g')].map((g) => {
      const [, x, y] = /translate\(([\d.]+),([\d.]+)\)/.exec(g.getAttribute('transform') ?? '') ?? [];
      return [Number(x), Number(y)] as const;
    });

  it('puts the panels under each other on a phone: nothing is off to the right', async () => {
    boxWidth(330);
    inTheme('light', <ChartView spec={facets} title="Plans" />);
    const chart = await drawn('Plans');
    const [first, second] = panels(chart);
    expect(second![0]).toBe(first![0]);
    expect(second![1]).toBeGreaterThan(first![1]);
    expect(Number(chart.querySelector('svg')!.getAttribute('width'))).toBeLessThanOrEqual(330);
  });

  it('puts them side by side, filling the box, where they fit', async () => {
    boxWidth(1300);
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 2000 });
    inTheme('light', <ChartView spec={facets} title="Plans" />);
    const chart = await drawn('Plans');
    const [first, second] = panels(chart);
    expect(second![1]).toBe(first![1]);
    expect(second![0]).toBeGreaterThan(first![0]);
    const width = Number(chart.querySelector('svg')!.getAttribute('width'));
    expect(width).toBeGreaterThan(1100);
    expect(width).toBeLessThanOrEqual(1300);
  });
});

describe('the scatter of two KPIs (fix 10)', () => {
  const x = { name: 'Travel', unit: 'm' };
  const y = { name: 'Moves', unit: '' };

  it('gives scenarios at the same place one label instead of printing their tags over each other', () => {
    const spec = scatterSpec([point('a', 1, 2, { front: true }), point('b', 1, 2, { front: true }), point('c', 3, 1, { front: true }), point('d', 5, 5)], x, y, dark);
    expect(layerData(spec, 'labels').map((l) => [l.x, l.y, l.label]).sort()).toEqual([
      [1, 2, 'a, b'],
      [3, 1, 'c'],
    ]);
    // Each point's tooltip names every scenario at its place.
    expect(layerData(spec, 'points').map((r) => r.together)).toEqual(['a, b', 'a, b', 'c', 'd']);
  });

  it('gives scenarios close enough for their tags to overlap one label too (Compare: 379,041 m and 379,379 m at 76.14 %)', () => {
    const spec = scatterSpec([point('asis', 538550, 86.71, { front: true }), point('greedy', 379041, 76.14, { front: true }), point('annealing', 379379, 76.14, { front: true })], x, y, dark);
    expect(layerData(spec, 'labels').map((l) => l.label).sort()).toEqual(['asis', 'greedy, annealing']);
  });

  it('runs a label away from the edge it is near', () => {
    const spec = scatterSpec([point('a', 0, 1, { front: true }), point('b', 50, 5, { front: true }), point('c', 100, 9, { front: true })], x, y, dark);
    const sides = Object.fromEntries((spec.layer as { name: string; mark: { align?: string }; data: { values: { label: string }[] } }[]).flatMap((l) => l.data.values.map((v) => [v.label, l.mark.align])));
    expect(sides).toEqual({ a: 'left', b: 'center', c: 'right' });
  });

  it('counts the tags of a crowded place past three', () => {
    const spec = scatterSpec(['a', 'b', 'c', 'd', 'e'].map((id) => point(id, 1, 1, { front: true })), x, y, dark);
    expect(layerData(spec, 'labels').map((l) => l.label)).toEqual(['a, b, c +2']);
  });

  it('rings and labels the compared scenarios, dominated or not, and joins the front', () => {
    const spec = scatterSpec([point('a', 1, 2, { front: true }), point('b', 3, 4, { compared: true }), point('c', 2, 1, { front: true })], x, y, dark);
    expect(layerData(spec, 'compared').map((r) => r.tag)).toEqual(['b']);
    expect(layerData(spec, 'labels').map((r) => r.label).sort()).toEqual(['a', 'b', 'c']);
    expect(layerData(spec, 'front').map((r) => r.tag)).toEqual(['a', 'c']);
  });

  it('draws tick values on both axes and the axis titles outside the plot', async () => {
    boxWidth(600);
    const spec = { vega_lite: scatterSpec([point('a', 10, 20, { front: true }), point('b', 30, 5)], x, y, dark) };
    inTheme('dark', <ChartView spec={spec} title="Scatter" />);
    const chart = await drawn('Scatter');
    const axes = [...chart.querySelectorAll('[aria-roledescription=axis]')];
    expect(axes).toHaveLength(2);
    for (const axis of axes) expect(axis.querySelectorAll('.role-axis-label text').length).toBeGreaterThan(1);
    expect(chart.querySelectorAll('path[aria-label^="a: Travel 10, Moves 20, non-dominated"]')).toHaveLength(1);
  });
});

describe('the KPI bars of Compare', () => {
  it('colours each bar like the delta on its card, the baseline grey, in the theme', () => {
    const spec = kpiBarsSpec(
      'Travel',
      'm',
      [
        { label: 'base', value: 10, comparison: null, baseline: true },
        { label: 'good', value: 8, comparison: 'better', baseline: false },
        { label: 'bad', value: 12, comparison: 'worse', baseline: false },
      ],
      dark,
    );
    expect((spec.data as { values: unknown[] }).values).toEqual([
      { scenario: 'base', value: 10, judgement: 'baseline' },
      { scenario: 'good', value: 8, judgement: 'better' },
      { scenario: 'bad', value: 12, judgement: 'worse' },
    ]);
    expect(spec.encoding).toMatchObject({ color: { scale: { domain: ['baseline', 'better', 'worse', 'equal'], range: [dark.muted, dark.better, dark.worse, dark.accent] } } });
  });
});
