import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../src/api/types.ts';
import { ParamField } from '../src/components/ParamField.tsx';
import { StatusBadge } from '../src/components/StatusBadge.tsx';
import { deltaArrow, formatDelta, formatNumber, formatRelative, MINUS } from '../src/format.ts';
import { collectValues } from '../src/params/form-values.ts';
import { applyTheme, savedTheme, systemTheme } from '../src/theme.ts';
import { app } from './render-app.tsx';
import { ALL_KINDS, kpi, scenario } from './fixtures.ts';

/**
 * The planner's first hour (issue 21): the home page and the twelve fixes from the trial, each shown
 * through the components a planner uses. The browser-level checks (390 px, axe, round trips) are in e2e/.
 */

const BASE = '/api/v1/sessions/main';

const datasets = { items: [{ key: 'sample', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null };

describe('the home page says what to do next', () => {
  it('without data: the files to upload, each with its columns and a template', async () => {
    const server = app({}, '/s/main');
    const step = await screen.findByTestId('next-step', {}, { timeout: 5000 });
    expect(step.dataset.step).toBe('upload');
    const group = await within(step).findByTestId('schema-group', {}, { timeout: 5000 });
    expect(within(group).getByText('warehouse_layout.csv')).toBeTruthy();
    const x = within(group).getByText('x').closest('tr')!;
    expect([...x.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['float', 'm', 'no', '']);
    fireEvent.click(within(group).getByRole('button', { name: 'Download the CSV template of warehouse_layout' }));
    await expect.poll(() => server.requests.some((r) => r.url.endsWith('/schemas/warehouse_layout/template?format=csv'))).toBe(true);
  });

  it('with data and no scenario: a button to the form with the dataset preselected', async () => {
    app({ [`GET ${BASE}/data`]: () => ({ body: datasets }) }, '/s/main');
    const link = await screen.findByRole('link', { name: 'Create a scenario on sample' });
    expect(link.getAttribute('href')).toBe('/s/main/scenarios?dataset=sample');
  });

  it('with runs done: compare them, or open the best one', async () => {
    const done = [
      scenario({ id: 'a', tag: 'short', status: 'COMPLETE', kpis: { travel: kpi('travel', 10) } }),
      scenario({ id: 'b', tag: 'long', status: 'COMPLETE', kpis: { travel: kpi('travel', 30) } }),
    ];
    app({ [`GET ${BASE}/data`]: () => ({ body: datasets }), [`GET ${BASE}/scenarios`]: () => ({ body: done }) }, '/s/main');
    expect((await screen.findByRole('link', { name: 'Compare 2 finished scenarios' })).getAttribute('href')).toContain('/s/main/compare?ids=a%2Cb');
    expect(await screen.findByRole('link', { name: 'Open the best: short' })).toBeTruthy();
  });

  it('the sessions list says where to start when there is no session', async () => {
    app({ 'GET /api/v1/sessions': () => ({ body: { sessions: [], default: '' } }) }, '/');
    expect((await screen.findByTestId('next-step')).textContent).toContain('A session holds your datasets and scenarios');
  });
});

describe('fixes from the trial', () => {
  const cancelled = scenario({ id: 'c', tag: 'stopped', status: 'FAILED', error: { message: 'cancelled', code: 'CANCELLED' } });

  it('1. a cancelled run has its own neutral badge, and cannot be picked in Compare', async () => {
    render(<StatusBadge status="FAILED" error={{ message: 'cancelled', code: 'CANCELLED' }} />);
    expect(screen.getByTestId('status').textContent).toBe('CANCELLED');
    expect(screen.getByTestId('status').dataset.status).toBe('CANCELLED');
    app({ [`GET ${BASE}/scenarios`]: () => ({ body: [cancelled, scenario({ id: 'd', tag: 'done', status: 'COMPLETE' })] }) }, '/s/main/compare');
    const stopped = await screen.findByRole<HTMLInputElement>('checkbox', { name: /stopped/ }, { timeout: 5000 });
    expect(stopped.disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /done/ }).disabled).toBe(false);
  });

  it('2. cards show key parameters, run time, KPI direction and the best marker, newest first', async () => {
    const param = { ...ALL_KINDS[0]!, label: 'Iterations', value: 50 } as Scenario['algorithm']['parameters'][number];
    const older = scenario({ id: 'o', tag: 'older', status: 'COMPLETE', kpis: { travel: kpi('travel', 5) }, created_at: '2026-11-23T08:00:00.000Z' });
    const newer = scenario({
      id: 'n',
      tag: 'newer',
      status: 'COMPLETE',
      kpis: { travel: kpi('travel', 9) },
      algorithm: { name: 'Greedy Slotting', parameters: [param] },
      created_at: '2026-11-24T08:00:00.000Z',
      started_at: '2026-11-24T08:00:00.000Z',
      finished_at: '2026-11-24T08:01:05.000Z',
    });
    app({ [`GET ${BASE}/scenarios`]: () => ({ body: [older, newer] }) }, '/s/main/scenarios');
    await screen.findByRole('heading', { name: 'newer' });
    const cards = screen.getAllByTestId('scenario-card');
    expect(cards.map((c) => c.dataset.tag)).toEqual(['newer', 'older']);
    expect(within(cards[0]!).getByTestId('duration').textContent).toContain('1 min 5 s');
    expect(within(cards[0]!).getByTestId('key-params').textContent).toBe('Iterations 50');
    expect(within(cards[0]!).getByText('(lower is better)')).toBeTruthy();
    expect(within(cards[1]!).queryByTestId('best')).toBeTruthy();
    expect(within(cards[0]!).queryByTestId('best')).toBeNull();
  });

  it('3. labels come from the descriptor; "(optional)" only where there is no default', () => {
    const withDefault = { name: 'max_iter', label: 'Max iterations', type: 'integer', required: false, value: 5, default: 5 } as const;
    const without = { name: 'seed', label: 'Seed', type: 'integer', required: false, value: null } as const;
    render(
      <>
        <ParamField descriptor={withDefault} value="5" idPrefix="a" onChange={() => undefined} />
        <ParamField descriptor={without} value="" idPrefix="a" onChange={() => undefined} />
      </>,
    );
    expect(screen.getByLabelText('Max iterations')).toBeTruthy();
    expect(screen.getByLabelText('Seed (optional)')).toBeTruthy();
  });

  it('4. every invalid field is reported at once, bounds and choices checked before sending', () => {
    const { errors } = collectValues(ALL_KINDS, { count: '500', rate: '-1', mode: 'medium', zones: ['A', 'Z'] });
    expect(errors).toEqual({ count: 'must be at most 100', rate: 'must be at least 0', mode: 'choose one of fast, slow', zones: 'not a choice: Z' });
  });

  it('5. diagnostic algorithms are hidden unless "Show diagnostics" is on', async () => {
    const items = [
      { name: 'Greedy Slotting', description: null, tags: [] },
      { name: 'Instant', description: null, tags: ['diagnostic'] },
    ];
    app(
      {
        [`GET ${BASE}/data`]: () => ({ body: datasets }),
        [`GET ${BASE}/algorithms`]: () => ({ body: { algorithms: items.map((i) => i.name), items } }),
        [`GET ${BASE}/algorithms/Greedy Slotting/parameters`]: () => ({ body: { name: 'Greedy Slotting', parameters: [] } }),
        [`GET ${BASE}/data/sample/parameters`]: () => ({ body: { name: 'sample', parameters: [] } }),
      },
      '/s/main/scenarios',
    );
    const select = await screen.findByLabelText<HTMLSelectElement>('Algorithm');
    await expect.poll(() => [...select.options].map((o) => o.value)).toEqual(['Greedy Slotting']);
    fireEvent.click(screen.getByRole('switch', { name: 'Show diagnostics' }));
    expect([...select.options].map((o) => o.value)).toEqual(['Greedy Slotting', 'Instant']);
  });

  it('6. a stack trace is behind a "details" toggle', async () => {
    const failed = scenario({ id: 'f', tag: 'broken', status: 'FAILED', error: { message: 'boom\n    at run (algo.ts:1:1)', code: 'ALGORITHM_ERROR' } });
    app({ [`GET ${BASE}/scenarios`]: () => ({ body: [failed] }) }, '/s/main/scenarios');
    const failure = await screen.findByTestId('failure');
    expect(failure.querySelector('details:not([open]) pre')?.textContent).toContain('at run');
    expect(within(failure).getByText('details')).toBeTruthy();
  });

  it('7. deltas: arrows for up and down, one minus sign, the browser’s locale', () => {
    expect(deltaArrow(-2)).toBe('↓');
    expect(deltaArrow(3)).toBe('↑');
    expect(formatDelta(-1.5)).toBe(`${MINUS}${(1.5).toLocaleString()}`);
    expect(formatNumber(-1234.5)).toBe(`${MINUS}${(1234.5).toLocaleString()}`);
    expect(formatRelative(-0.25).startsWith(MINUS)).toBe(true);
    expect(formatNumber(-3)).not.toContain('-');
  });

  it('8. the theme follows the system until the user picks one', async () => {
    localStorage.removeItem('scenarist.theme');
    app({}, '/');
    await screen.findByRole('heading', { name: 'Sessions' });
    expect(savedTheme()).toBeNull();
    expect(document.documentElement.dataset.theme).toBe(systemTheme());
    const other = systemTheme() === 'dark' ? 'light' : 'dark';
    fireEvent.click(screen.getByRole('button', { name: `Use ${other} theme` }));
    expect(savedTheme()).toBe(other);
    localStorage.removeItem('scenarist.theme');
    applyTheme('light');
  });

  it('8. with the system in dark mode, the theme button offers the light theme, and then the dark one back', async () => {
    localStorage.removeItem('scenarist.theme');
    // The operating system's preference, as the browser reports it: dark.
    const dark = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({ matches: query === '(prefers-color-scheme: dark)', media: query, addEventListener: () => {}, removeEventListener: () => {} }) as unknown as MediaQueryList,
    );
    try {
      app({}, '/');
      await screen.findByRole('heading', { name: 'Sessions' });
      expect(document.documentElement.dataset.theme).toBe('dark');
      expect(screen.queryByRole('button', { name: /dark theme/i })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Use light theme' }));
      expect(document.documentElement.dataset.theme).toBe('light');
      expect(savedTheme()).toBe('light');
      expect(screen.getByRole('button', { name: 'Use dark theme' })).toBeTruthy();
    } finally {
      dark.mockRestore();
      localStorage.removeItem('scenarist.theme');
      applyTheme('light');
    }
  });

  it('9. the Token button appears only when auth is on', async () => {
    app({}, '/');
    await screen.findByRole('heading', { name: 'Sessions' });
    await expect.poll(() => screen.queryByRole('button', { name: /^Token/ })).toBeNull();
    document.body.innerHTML = '';
    app({}, '/', 'token');
    expect(await screen.findByRole('button', { name: /^Token/ })).toBeTruthy();
  });

  it('11. an unknown session link shows one "not found" page with a way back', async () => {
    app({}, '/s/nope/scenarios');
    const page = await screen.findByTestId('not-found');
    expect(page.textContent).toContain('nope');
    expect(within(page).getByRole('link', { name: 'Back to the sessions' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Scenarios' })).toBeNull();
  });
});
