import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../src/api/types.ts';
import { paretoPoints } from '../src/compare/pareto.ts';
import { humanise } from '../src/params/parameter-labels.ts';
import { buildRouter } from '../src/router.tsx';
import type { Route } from './answering-fetch.ts';
import { kpi, scenario } from './fixtures.ts';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/main';

const done = scenario({
  id: 's1',
  tag: 'greedy',
  status: 'COMPLETE',
  progress: 1,
  seed: 42,
  started_at: '2026-11-23T08:00:00.000Z',
  finished_at: '2026-11-23T08:00:02.500Z',
  algorithm: {
    name: 'Greedy Slotting',
    parameters: [{ name: 'max_moves', type: 'integer', required: true, value: 25, description: 'Most SKUs moved' }],
  },
  data_parameters: { daysBack: 30 },
  kpis: { travel: kpi('travel', 100, 'LOWER'), moves: kpi('moves', 7, 'HIGHER') },
});
const other = scenario({ id: 's2', tag: 'other', status: 'COMPLETE', kpis: { travel: kpi('travel', 90, 'LOWER'), moves: kpi('moves', 3, 'HIGHER') } });

function renderPage(routes: Record<string, Route> = {}) {
  const router = buildRouter(createMemoryHistory({ initialEntries: ['/s/main/scenarios/s1'] }));
  const rendered = renderWithApi(<RouterProvider router={router} />, {
    'GET /api/v1/sessions': () => ({ body: { sessions: [{ id: 'main', display_name: 'main' }] } }),
    [`GET ${BASE}/scenarios`]: () => ({ body: [done, other] }),
    [`GET ${BASE}/scenarios/s1`]: () => ({ body: done }),
    [`GET ${BASE}/data/example/parameters`]: () => ({ body: { parameters: [{ name: 'daysBack', type: 'integer', required: false, value: 30, description: 'Days of picks' }] } }),
    [`GET ${BASE}/scenarios/s1/logs`]: () => ({ body: { lines: [{ at: '2026-11-23T08:00:01.000Z', level: 'info', message: 'placed' }], truncated: false, error: null } }),
    [`GET ${BASE}/scenarios/s1/views`]: () => ({ body: { items: [{ name: 'summary', title: 'Summary', kind: 'metrics' }] } }),
    [`GET ${BASE}/scenarios/s1/views/summary`]: () => ({
      body: { name: 'summary', title: 'Summary', kind: 'metrics', spec: { items: [{ label: 'Moved', value: 7, unit: 'SKU', better_when: null, format: 'd' }] } },
    }),
    ...routes,
  });
  return { ...rendered, router };
}

describe('the scenario page', () => {
  it('shows setup with labels, run facts, KPIs with the best in session, result views and logs', async () => {
    renderPage();
    expect((await screen.findByTestId('scenario-title')).textContent).toBe('greedy');
    const params = screen.getByTestId('parameters');
    expect(params.textContent).toContain('Greedy Slotting');
    expect(params.textContent).toContain('Max moves');
    expect(params.textContent).toContain('Most SKUs moved');
    expect(params.querySelector('[data-param=max_moves]')?.textContent).toBe('25');
    await waitFor(() => expect(params.textContent).toContain('Days of picks'));
    expect(params.querySelector('[data-param=daysBack]')?.textContent).toBe('30');
    expect(screen.getByTestId('duration').textContent).toBe('2.50 s');
    expect(screen.getByTestId('seed').textContent).toBe('42');
    // travel: 90 (other) beats 100 (lower is better); moves: 7 is the most.
    const kpis = screen.getAllByTestId('kpi');
    expect(kpis.find((k) => k.dataset.kpi === 'travel')?.dataset.best).toBe('false');
    expect(kpis.find((k) => k.dataset.kpi === 'moves')?.dataset.best).toBe('true');
    expect(within(kpis.find((k) => k.dataset.kpi === 'moves')!).getByText(/best in session/)).toBeTruthy();
    expect((await screen.findByTestId('metrics-view')).textContent).toContain('Moved');
    expect((await screen.findByTestId('log-lines')).textContent).toContain('placed');
    expect(screen.getByRole('button', { name: 'Download the result of greedy as CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
  });

  it('puts what a complete run gave first: KPIs, then the result views, then run and setup (fix 14)', async () => {
    renderPage();
    await screen.findByTestId('metrics-view');
    const order = ['kpis-title', 'views-title', 'run-title', 'params-title'].map((id) => document.getElementById(id)!);
    for (let i = 1; i < order.length; i++) expect(order[i - 1]!.compareDocumentPosition(order[i]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('copies the scenario into a create form filled with its parameters', async () => {
    const { router } = renderPage({
      [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'example', kind: 'master', created_at: '', tables: [] }], next_cursor: null } }),
      [`GET ${BASE}/algorithms`]: () => ({ body: { items: [{ name: 'Greedy Slotting', description: 'greedy' }, { name: 'Other', description: '' }] } }),
      [`GET ${BASE}/algorithms/Greedy%20Slotting/parameters`]: () => ({
        body: { parameters: [{ name: 'max_moves', type: 'integer', required: true, value: 10, default: 10 }] },
      }),
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Copy as new scenario' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ copy: 's1' }));
    await waitFor(() => expect((document.getElementById('scenario-tag') as HTMLInputElement | null)?.value).toBe('greedy (copy)'));
    expect((document.getElementById('scenario-algo') as HTMLSelectElement).value).toBe('Greedy Slotting');
    await waitFor(() => expect((document.getElementById('algo-max_moves') as HTMLInputElement | null)?.value).toBe('25'));
    expect((document.getElementById('data-daysBack') as HTMLInputElement | null)?.value).toBe('30');
  });

  it('says when the scenario does not exist', async () => {
    renderPage({
      [`GET ${BASE}/scenarios`]: () => ({ body: [other] }),
      [`GET ${BASE}/scenarios/s1`]: () => ({ status: 404, body: { detail: 'scenario s1 not found', code: 'NOT_FOUND' } }),
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(/There is no scenario s1/);
  });
});

describe('helpers of the scenario and compare pages', () => {
  it('humanises parameter names', () => {
    expect(humanise('max_moves')).toBe('Max moves');
    expect(humanise('daysBack')).toBe('Days back');
  });

  it('marks the non-dominated scenarios for two KPIs by their directions', () => {
    const at = (id: string, travel: number, moves: number, status: Scenario['status'] = 'COMPLETE') =>
      scenario({ id, tag: id, status, kpis: { travel: kpi('travel', travel, 'LOWER'), moves: kpi('moves', moves, 'HIGHER') } });
    const x = { name: 'travel', unit: 'm', better_when: 'LOWER' as const };
    const y = { name: 'moves', unit: '', better_when: 'HIGHER' as const };
    const points = paretoPoints([at('a', 10, 5), at('b', 8, 3), at('c', 12, 4), at('d', 10, 5), at('e', 1, 99, 'FAILED')], x, y);
    expect(Object.fromEntries(points.map((p) => [p.id, p.front]))).toEqual({ a: true, b: true, c: false, d: true });
  });
});
