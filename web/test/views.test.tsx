import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MetricsSpec, TableSpec } from '../src/api/views.ts';
import { formatValue } from '../src/views/number-format.ts';
import { Markdown, safeHref } from '../src/views/markdown.tsx';
import { MetricsView } from '../src/views/MetricsView.tsx';
import { TableView } from '../src/views/TableView.tsx';
import { TextView } from '../src/views/TextView.tsx';
import { ChartView } from '../src/views/ChartView.tsx';
import { ViewList } from '../src/views/ViewList.tsx';
import { renderWithApi } from './render-with-api.tsx';

const VIEWS = '/api/v1/sessions/main/scenarios/s1/views';

describe('number formats (d3-format strings through Intl)', () => {
  it('formats with grouping, precision, percent, sign, trimming and SI in the given locale', () => {
    expect(formatValue(1234.56, ',.1f', 'en')).toBe('1,234.6');
    expect(formatValue(1234.56, ',.1f', 'de')).toBe('1.234,6');
    expect(formatValue(1234.56, '.2f', 'en')).toBe('1234.56');
    expect(formatValue(0.1234, '.0%', 'en')).toBe('12%');
    expect(formatValue(0.1234, '.1%', 'en')).toBe('12.3%');
    expect(formatValue(3, '+.2f', 'en')).toBe('+3.00');
    expect(formatValue(2.5, '.3~f', 'en')).toBe('2.5');
    expect(formatValue(2.6, 'd', 'en')).toBe('3');
    expect(formatValue(1500, '.2s', 'en')).toBe('1.5K');
    expect(formatValue(-4, '(.1f', 'en')).toBe('(4.0)');
  });

  it('shows a number as is without a format, and a missing value as a dash', () => {
    expect(formatValue(0.125, null, 'en')).toBe('0.125');
    expect(formatValue(null, ',.1f', 'en')).toBe('—');
    expect(formatValue(7, 'not a format', 'en')).toBe('7');
  });
});

describe('markdown, rendered escaped', () => {
  it('renders paragraphs, headings, lists, code, emphasis and safe links', () => {
    const { container } = render(
      <Markdown source={'# Plan\n\nMoves **12** SKUs, *fast*.\n\n- one `a`\n- two\n\n1. first\n2. second\n\n```\nx < y\n```\n\nSee [docs](https://example.org/x).'} />,
    );
    expect(container.querySelector('h4')?.textContent).toBe('Plan');
    expect(container.querySelector('strong')?.textContent).toBe('12');
    expect(container.querySelector('em')?.textContent).toBe('fast');
    expect(container.querySelectorAll('ul li')).toHaveLength(2);
    expect(container.querySelectorAll('ol li')).toHaveLength(2);
    expect(container.querySelector('li code')?.textContent).toBe('a');
    expect(container.querySelector('pre code')?.textContent).toBe('x < y');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.org/x');
  });

  it('shows HTML as text and drops links to unsafe protocols', () => {
    const { container } = render(<Markdown source={'<script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1)) [d](data:text/html,x)'} />);
    expect(container.querySelector('script, img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('click');
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('#/s/main/data')).toBe('#/s/main/data');
  });

  it('is what a text view shows', () => {
    render(<TextView spec={{ markdown: 'Hello _planner_' }} />);
    expect(screen.getByTestId('text-view').querySelector('em')?.textContent).toBe('planner');
  });
});

describe('the metrics view', () => {
  it('shows each label, formatted value, unit and direction', () => {
    const spec: MetricsSpec = {
      items: [
        { label: 'Travel', value: 12345.678, unit: 'm', better_when: 'LOWER', format: ',.1f' },
        { label: 'Fill', value: 0.42, unit: null, better_when: 'AT_LEAST', format: '.0%' },
        { label: 'Unknown', value: null, unit: null, better_when: null, format: null },
      ],
    };
    render(<MetricsView spec={spec} />);
    const cards = within(screen.getByTestId('metrics-view')).getAllByRole('term').map((t) => t.parentElement!.textContent);
    expect(cards[0]).toBe(`Travel${(12345.678).toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} mlower is better`);
    expect(cards[1]).toContain('at least the threshold');
    expect(cards[2]).toContain('—');
  });
});

/** A table view of 5 rows served 2 a page, sortable by `saving`. */
function tableServer(extra = 0) {
  const rows: [string, number][] = [
    ['A', 1.5],
    ['B', 20],
    ['C', 3.25],
    ['D', 4],
    ['E', 1000.5],
    ...Array.from({ length: extra }, (_, n): [string, number] => [`X${n}`, 100 + n]),
  ];
  return {
    [`GET ${VIEWS}`]: () => ({ body: { items: [{ name: 'moves', title: 'Moves', kind: 'table' }] } }),
    [`GET ${VIEWS}/moves`]: (request: Request) => {
      const q = new URL(request.url).searchParams;
      const limit = Number(q.get('limit') ?? 100);
      const start = Number(q.get('cursor') ?? 0);
      const sort = q.get('sort');
      const ordered = [...rows];
      if (sort) ordered.sort((a, b) => (sort.startsWith('-') ? b[1] - a[1] : a[1] - b[1]));
      const page = ordered.slice(start, start + limit);
      const spec: TableSpec = {
        columns: [
          { name: 'sku', label: 'SKU', unit: null, format: null, type: 'string' },
          { name: 'saving', label: 'Saving', unit: 'm', format: ',.2f', type: 'float' },
        ],
        rows: page,
        total: rows.length,
        next_cursor: start + limit < rows.length ? String(start + limit) : null,
        sort: sort ? { column: sort.replace(/^-/, ''), descending: sort.startsWith('-') } : null,
      };
      return { body: { name: 'moves', title: 'Moves', kind: 'table', spec } };
    },
  };
}

describe('the table view', () => {
  const target = { of: 'scenario', sid: 'main', id: 's1' } as const;
  const fmt = (n: number) => n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  it('shows labels with units and formatted numbers, pages with the cursor and sorts through the server', async () => {
    const { server } = renderWithApi(<ViewList target={target} />, tableServer());
    await screen.findByTestId('table-view');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['SKU', 'Saving (m)']);
    expect(screen.getByTestId('table-range').textContent).toBe('Rows 1–5 of 5');
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(screen.getAllByRole('cell')[9]!.textContent).toBe(fmt(1000.5));

    fireEvent.click(screen.getByRole('button', { name: /Saving/ }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Saving/ }).getAttribute('aria-sort')).toBe('ascending'));
    expect(screen.getAllByRole('cell')[0]!.textContent).toBe('A');
    fireEvent.click(screen.getByRole('button', { name: /Saving/ }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Saving/ }).getAttribute('aria-sort')).toBe('descending'));
    expect(screen.getAllByRole('cell')[0]!.textContent).toBe('E');
    const asked = server.requests.map((r) => new URL(r.url).searchParams.get('sort'));
    expect(asked).toContain('saving');
    expect(asked).toContain('-saving');
  });

  it('follows next_cursor to the next page and comes back', async () => {
    const { server } = renderWithApi(<TableView target={target} name="moves" title="Moves" />, tableServer(25));
    await screen.findByTestId('table-view');
    expect(new URL(server.requests[0]!.url).searchParams.get('limit')).toBe('25');
    await waitFor(() => expect(screen.getByTestId('table-range').textContent).toBe('Rows 1–25 of 30'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('table-range').textContent).toBe('Rows 26–30 of 30'));
    expect(new URL(server.requests.at(-1)!.url).searchParams.get('cursor')).toBe('25');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(screen.getByTestId('table-range').textContent).toBe('Rows 1–25 of 30'));
  });
});

describe('a view that fails', () => {
  it('shows the server message of a 422 and leaves the other views standing', async () => {
    renderWithApi(<ViewList target={{ of: 'dataset', sid: 'main', key: 'd' }} />, {
      'GET /api/v1/sessions/main/data/d/views': () => ({
        body: {
          items: [
            { name: 'broken', title: 'Broken', kind: 'chart' },
            { name: 'note', title: 'Note', kind: 'text' },
          ],
        },
      }),
      'GET /api/v1/sessions/main/data/d/views/broken': () => ({ status: 422, body: { detail: 'view "broken" failed: boom', code: 'VIEW_ERROR' } }),
      'GET /api/v1/sessions/main/data/d/views/note': () => ({ body: { name: 'note', title: 'Note', kind: 'text', spec: { markdown: 'fine' } } }),
    });
    expect((await screen.findByRole('alert')).textContent).toBe('view "broken" failed: boom');
    expect((await screen.findByTestId('text-view')).textContent).toBe('fine');
  });
});

describe('the chart view', () => {
  it('draws a Vega-Lite spec with named data as SVG through the interpreter', async () => {
    const spec = {
      vega_lite: {
        data: { name: 't' },
        datasets: { t: [{ zone: 'A', picks: 3 }, { zone: 'B', picks: 5 }] },
        mark: 'bar',
        encoding: { x: { field: 'zone', type: 'nominal' }, y: { field: 'picks', type: 'quantitative' } },
        transform: [{ calculate: 'datum.picks * 2', as: 'double' }],
      },
    };
    render(<ChartView spec={spec} title="Picks by zone" />);
    const chart = screen.getByRole('figure', { name: 'Picks by zone' });
    await waitFor(() => expect(chart.dataset.rendered).toBe('true'), { timeout: 10_000 });
    expect(chart.querySelector('svg')).not.toBeNull();
    expect(chart.querySelectorAll('path, rect').length).toBeGreaterThan(0);
  });

  it('says so when a spec cannot be drawn', async () => {
    render(<ChartView spec={{ vega_lite: { mark: 'no-such-mark' } }} title="Broken" />);
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toMatch(/could not be drawn/);
  });
});
