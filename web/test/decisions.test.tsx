import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plan, Report } from '../src/api/decisions.ts';
import type { Scenario } from '../src/api/types.ts';
import type { Route } from './answering-fetch.ts';
import { kpi, scenario } from './fixtures.ts';
import { app, BASE } from './render-app.tsx';

/** The decision loop's pages against answers from a table (the e2e test, web/e2e/decisions.test.ts, runs the real server). */

const greedy = scenario({ id: 's1', tag: 'greedy', status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 90, 'LOWER') } });
const asis = scenario({ id: 's2', tag: 'asis', status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 100, 'LOWER') } });
const running = scenario({ id: 's3', tag: 'running', status: 'PROCESSING', progress: 0.5 });

const PLAN: Plan = {
  id: 'p1',
  scenario_id: 's1',
  tag: 'greedy',
  dataset_key: 'sample',
  algorithm: 'Greedy Slotting',
  kpis: greedy.kpis,
  note: 'shortest walk',
  published_by: { id: 'local', name: 'local' },
  published_at: '2026-11-27T14:02:11.512Z',
  ended: null,
  dataset_version: 1,
  stale: null,
};

const withScenarios = (list: Scenario[], plan: Plan | null): Record<string, Route> => ({
  [`GET ${BASE}/scenarios`]: () => ({ body: list }),
  ...Object.fromEntries(list.map((s) => [`GET ${BASE}/scenarios/${s.id}`, () => ({ body: s })])),
  ...Object.fromEntries(list.map((s) => [`GET ${BASE}/scenarios/${s.id}/views`, () => ({ body: { items: [] } })])),
  ...Object.fromEntries(list.map((s) => [`GET ${BASE}/scenarios/${s.id}/logs`, () => ({ body: { lines: [], truncated: false, error: null } })])),
  [`GET ${BASE}/plan`]: () => ({ body: { current: plan, history: [] } }),
});

describe('publishing the plan from the scenario page', () => {
  it('publishes a complete scenario with the note typed, and shows a refusal in the dialog', async () => {
    let refuse = true;
    const notes: string[] = [];
    app(
      {
        ...withScenarios([greedy, asis], null),
        [`POST ${BASE}/scenarios/s1/publish`]: async (request) => {
          const body = (await request.json()) as { note: string };
          notes.push(body.note);
          if (refuse) return { status: 409, body: { detail: 'scenario greedy is being reset', code: 'PLAN_SCENARIO_NOT_COMPLETE' } };
          return { status: 201, body: { ...PLAN, note: body.note } };
        },
      },
      '/s/main/scenarios/s1',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Publish as plan…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as plan' });
    fireEvent.change(within(dialog).getByLabelText('Why this one'), { target: { value: '  shortest walk  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('scenario greedy is being reset');
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(notes).toEqual(['shortest walk', 'shortest walk']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers no publish for a scenario that is not complete', async () => {
    app(withScenarios([running], null), '/s/main/scenarios/s3');
    await screen.findByTestId('scenario-title');
    await screen.findByRole('button', { name: 'Cancel' });
    expect(screen.queryByRole('button', { name: 'Publish as plan…' })).toBeNull();
  });

  it('badges the plan and offers to withdraw it, with a note', async () => {
    const server = app(
      { ...withScenarios([greedy, asis], PLAN), [`DELETE ${BASE}/plan`]: () => ({ body: { ...PLAN, ended: { how: 'withdrawn', at: PLAN.published_at, note: 'stale', by: PLAN.published_by } } }) },
      '/s/main/scenarios/s1',
    );
    await screen.findByTestId('plan-badge');
    expect(screen.queryByRole('button', { name: 'Publish as plan…' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw plan…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw the plan' });
    const submit = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Withdraw' });
    expect(submit.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Why withdraw it'), { target: { value: 'stale' } });
    fireEvent.click(submit);
    await waitFor(() => expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(await server.requests.find((r) => r.method === 'DELETE')!.json()).toEqual({ note: 'stale' });
  });
});

describe('the plan elsewhere', () => {
  it('badges only the plan in the list of scenarios', async () => {
    app(withScenarios([greedy, asis], PLAN), '/s/main/scenarios');
    const card = async (tag: string) => (await screen.findAllByTestId('scenario-card')).find((c) => c.dataset.tag === tag)!;
    await waitFor(async () => expect(within(await card('greedy')).queryByTestId('plan-badge')).not.toBeNull());
    expect(within(await card('asis')).queryByTestId('plan-badge')).toBeNull();
  });

  it('shows the current plan on the home page, with who, when, the note and its KPIs, and links to Activity and Reports', async () => {
    app({ ...withScenarios([greedy, asis], PLAN), [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'sample', tables: [] }], next_cursor: null } }) }, '/s/main');
    const home = await screen.findByTestId('home-plan');
    expect((await within(home).findByTestId('plan-link')).textContent).toBe('greedy');
    expect(within(home).getByTestId('plan-note').textContent).toBe('shortest walk');
    expect(within(home).getByTestId('plan-by').textContent).toMatch(/^Published by local on /);
    expect(within(home).getAllByTestId('plan-kpi').map((k) => k.dataset.kpi)).toEqual(['travel']);
    expect(within(home).getByRole('link', { name: 'Activity' }).getAttribute('href')).toBe('/s/main/activity');
    expect(within(home).getByRole('link', { name: 'Reports' }).getAttribute('href')).toBe('/s/main/reports');
  });

  it('says so when no plan is published', async () => {
    app(withScenarios([greedy], null), '/s/main');
    const home = await screen.findByTestId('home-plan');
    await waitFor(() => expect(home.textContent).toContain('No plan is published'));
  });

  it('compares against the plan when no baseline is chosen, and against the chosen one otherwise', async () => {
    const compare = (baseline: string) => ({
      baseline,
      scenarios: [asis, greedy].map((s) => ({ id: s.id, tag: s.tag, status: s.status, algorithm: s.algorithm.name, dataset_key: 'example' })),
      kpis: [],
      parameters: [],
    });
    const server = app(
      {
        ...withScenarios([greedy, asis], PLAN),
        [`GET ${BASE}/compare`]: (r) => ({ body: compare(new URL(r.url).searchParams.get('baseline')!) }),
        [`GET ${BASE}/compare/views`]: () => ({ body: { items: [] } }),
      },
      '/s/main/compare?ids=s2,s1',
    );
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('Baseline').value).toBe('s1'));
    await waitFor(() => expect(server.requests.some((r) => r.url.includes('/compare?') && new URL(r.url).searchParams.get('baseline') === 's1')).toBe(true));
    fireEvent.change(screen.getByLabelText('Baseline'), { target: { value: 's2' } });
    await waitFor(() => expect(server.router.state.location.search).toMatchObject({ baseline: 's2' }));
  });
});

describe('reports', () => {
  const frozenTable = { name: 'moves', title: 'Moves', kind: 'table', spec: { columns: [{ name: 'sku', label: 'SKU', type: 'string', unit: null, format: null }], rows: Array.from({ length: 120 }, (_, n) => [`SKU-${n}`]), total: 120, next_cursor: null, sort: null } };
  const REPORT: Report = {
    id: 'r1',
    title: 'Slotting decision',
    note: 'Greedy against the layout.',
    created_at: '2026-11-27T15:00:00.000Z',
    created_by: { id: 'tok', name: 'planning desk' },
    baseline: 's1',
    input_changes: [],
    scenarios: [greedy, asis].map((s) => ({ id: s.id, tag: s.tag, status: s.status, algorithm: s.algorithm.name, dataset_key: 'sample' })),
    kpis: [
      {
        name: 'travel',
        unit: 'm',
        better_when: 'LOWER',
        best: 's1',
        values: [
          { scenario_id: 's1', value: 90, delta: null, relative_delta: null, comparison: null },
          { scenario_id: 's2', value: 100, delta: 10, relative_delta: 0.111, comparison: 'worse' },
        ],
      },
    ] as Report['kpis'],
    parameters: [
      { name: 'max_moves', values: [{ scenario_id: 's1', value: 25 }, { scenario_id: 's2', value: 10 }], differs: true },
      { name: 'data_params.days_back', values: [{ scenario_id: 's1', value: 30 }, { scenario_id: 's2', value: 30 }], differs: false },
    ],
    inputs: [{ name: 'dataset', values: [{ scenario_id: 's1', value: 'sample' }, { scenario_id: 's2', value: 'sample' }], differs: false }],
    views: {
      comparison: [{ name: 'summary', title: 'Summary', kind: 'text', spec: { markdown: 'Greedy walks **less**.' } }],
      scenarios: [
        { scenario_id: 's1', tag: 'greedy', views: [frozenTable, { name: 'broken', title: 'Broken', kind: 'chart', error: 'the view threw' }] },
        { scenario_id: 's2', tag: 'asis', views: [] },
      ],
    },
  };

  it('saves the comparison from Compare with title, note, the ids and baseline shown, and opens its permalink', async () => {
    const server = app(
      {
        ...withScenarios([greedy, asis], PLAN),
        [`GET ${BASE}/compare`]: () => ({ body: { baseline: 's1', scenarios: REPORT.scenarios, kpis: [], parameters: [] } }),
        [`GET ${BASE}/compare/views`]: () => ({ body: { items: [] } }),
        [`POST ${BASE}/reports`]: () => ({ status: 201, body: REPORT }),
        [`GET ${BASE}/reports/r1`]: () => ({ body: REPORT }),
      },
      '/s/main/compare?ids=s2,s1',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save as report…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as report' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Slotting decision' } });
    fireEvent.change(within(dialog).getByLabelText(/Note/), { target: { value: 'Greedy against the layout.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save report' }));
    await waitFor(() => expect(server.router.state.location.pathname).toBe('/s/main/reports/r1'));
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(await post.json()).toEqual({ title: 'Slotting decision', ids: ['s2', 's1'], baseline: 's1', note: 'Greedy against the layout.' });
  });

  it('shows everything the report froze: KPIs with deltas, parameters, inputs, views drawn from their specs, a failed view as its error', async () => {
    app({ [`GET ${BASE}/reports/r1`]: () => ({ body: REPORT }) }, '/s/main/reports/r1');
    expect((await screen.findByTestId('report-title')).textContent).toBe('Slotting decision');
    expect(screen.getByTestId('report-meta').textContent).toMatch(/^Saved by planning desk on .* 2 scenarios, baseline greedy$/);
    for (const heading of ['KPIs and deltas', 'Parameters', 'Inputs', 'Comparison views', 'Result of greedy', 'Result of asis']) {
      expect(screen.getByRole('heading', { name: heading, level: 2 })).toBeTruthy();
    }
    const kpis = screen.getByTestId('report-kpis');
    expect(kpis.textContent).toContain('★ best');
    expect(kpis.querySelector('[data-comparison=worse]')?.textContent).toContain('worse');
    expect(screen.getByRole('region', { name: 'Table of the parameters' }).querySelector('tr[data-differs=true]')?.textContent).toContain('25');
    expect(within(screen.getByRole('region', { name: 'Table of the parameters' })).getAllByRole('rowheader').map((h) => h.textContent)).toEqual([
      'Algorithm',
      'Max moves (differs)',
      'Days back (data)',
    ]);
    // Every row of the frozen table, no paging.
    expect(within(screen.getByTestId('frozen-table')).getAllByRole('row')).toHaveLength(121);
    expect(screen.getByTestId('view-error').textContent).toContain('the view threw');
    expect(screen.getByText('less').tagName).toBe('STRONG');
    expect(screen.getByText(/the scenario was not complete/)).toBeTruthy();
  });

  it('names each parameter by the label frozen beside it; a report saved before labels reads its names humanised', async () => {
    const [maxMoves, daysBack] = REPORT.parameters;
    const labelled: Report = { ...REPORT, parameters: [{ ...maxMoves!, label: 'Most moves per shift' }, { ...daysBack!, label: 'History (days)' }] };
    app({ [`GET ${BASE}/reports/r1`]: () => ({ body: labelled }) }, '/s/main/reports/r1');
    const table = await screen.findByRole('region', { name: 'Table of the parameters' });
    expect(within(table).getAllByRole('rowheader').map((h) => [h.textContent, h.getAttribute('title')])).toEqual([
      ['Algorithm', null],
      ['Most moves per shift (differs)', 'max_moves'],
      ['History (days) (data)', 'data_params.days_back'],
    ]);
  });

  it('says when a report does not exist', async () => {
    app({ [`GET ${BASE}/reports/nope`]: () => ({ status: 404, body: { detail: 'no report nope', code: 'REPORT_NOT_FOUND' } }) }, '/s/main/reports/nope');
    expect((await screen.findByRole('alert')).textContent).toContain('There is no report nope in this session.');
  });

  it('lists the reports, the latest first, each linking to its permalink', async () => {
    const item = (id: string, title: string) => ({ id, title, note: null, scenario_ids: ['s1', 's2'], created_at: REPORT.created_at, created_by: REPORT.created_by });
    app({ [`GET ${BASE}/reports`]: () => ({ body: { items: [item('r1', 'First'), item('r2', 'Second')], next_cursor: null } }) }, '/s/main/reports');
    const list = await screen.findByTestId('report-list');
    expect(within(list).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Second', '/s/main/reports/r2'],
      ['First', '/s/main/reports/r1'],
    ]);
  });
});

describe('Activity', () => {
  const entry = (seq: number, action: string, status: number) => ({
    seq,
    at: '2026-11-27T14:02:13.802Z',
    who: { token_id: null, name: 'local' },
    address: '127.0.0.1',
    action,
    session_id: 'main',
    targets: { session: 'main', scenario: 's1-long-identifier' },
    status,
    hash: 'h',
    prev_hash: 'p',
  });

  it('lists who did what, filters by action and who, and pages with the cursor', async () => {
    const server = app(
      {
        // A scenario the session still has is named by its tag and linked (one deleted since is said so).
        [`GET ${BASE}/scenarios`]: () => ({ body: [scenario({ id: 's1-long-identifier', tag: 'greedy' })] }),
        [`GET ${BASE}/audit`]: (r) => {
          const q = new URL(r.url).searchParams;
          if (q.get('cursor') === 'c2') return { body: { entries: [entry(1, 'session.create', 201)], next_cursor: null } };
          return { body: { entries: [entry(3, 'plan.publish', 201), entry(2, 'scenario.delete', 409)], next_cursor: 'c2' } };
        },
      },
      '/s/main/activity',
    );
    const rows = await screen.findAllByTestId('activity-entry');
    expect(rows.map((r) => [r.dataset.action, r.dataset.outcome])).toEqual([
      ['plan.publish', 'done'],
      ['scenario.delete', 'refused'],
    ]);
    await waitFor(() => expect(within(rows[0]!).getByRole('link', { name: 'greedy' }).getAttribute('href')).toBe('/s/main/scenarios/s1-long-identifier'));
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.getAllByTestId('activity-entry').map((r) => r.dataset.action)).toEqual(['session.create']));
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'plan.publish' } });
    fireEvent.change(screen.getByLabelText('Who'), { target: { value: 'planner' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => {
      const last = new URL(server.requests.at(-1)!.url).searchParams;
      expect([last.get('action'), last.get('who'), last.get('cursor')]).toEqual(['plan.publish', 'planner', null]);
    });
  });

  it('shows the refusal of a token without the run scope', async () => {
    app({ [`GET ${BASE}/audit`]: () => ({ status: 403, body: { detail: 'reading the audit trail needs a run token', code: 'TOKEN_SCOPE_INSUFFICIENT' } }) }, '/s/main/activity');
    expect((await screen.findByRole('alert')).textContent).toContain('needs a run token');
  });
});
