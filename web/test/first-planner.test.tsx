import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, Plan } from '../src/api/decisions.ts';
import { phraseOf, phraseText, type ActivityNames } from '../src/decisions/activity-phrases.ts';
import { PLAN_LOCK_REASON } from '../src/decisions/PlanLock.tsx';
import { kpi, scenario } from './fixtures.ts';
import { app, BASE } from './render-app.tsx';

/** A first-time planner's frictions (issue #41), each against answers from a table. */

const greedy = scenario({ id: 's1', tag: 'greedy', status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 90, 'LOWER') } });
const asis = scenario({ id: 's2', tag: 'asis', status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 100, 'LOWER') } });

const plan = (over: Partial<Plan> & Pick<Plan, 'id' | 'scenario_id' | 'tag'>): Plan => ({
  dataset_key: 'sample',
  algorithm: 'Greedy Slotting',
  kpis: {},
  note: 'shortest walk',
  published_by: { id: 'local', name: 'local' },
  published_at: '2026-11-27T14:02:11.512Z',
  ended: null,
  dataset_version: 1,
  stale: null,
  ...over,
});

const PLAN = plan({ id: 'p2', scenario_id: 's1', tag: 'greedy', kpis: greedy.kpis });

const withScenarios = (current: Plan | null) => ({
  [`GET ${BASE}/scenarios`]: () => ({ body: [greedy, asis] }),
  [`GET ${BASE}/scenarios/s1`]: () => ({ body: greedy }),
  [`GET ${BASE}/scenarios/s1/views`]: () => ({ body: { items: [] } }),
  [`GET ${BASE}/scenarios/s1/logs`]: () => ({ body: { lines: [], truncated: false, error: null } }),
  [`GET ${BASE}/plan`]: () => ({ body: { current, history: [] } }),
});

/** The description a button's `aria-describedby` names. */
const describedAs = (button: HTMLElement) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent;

describe('5. the published plan’s Reset and Delete are disabled, with the reason', () => {
  it('on its page: both disabled, described by why, and sending nothing', async () => {
    const server = app(withScenarios(PLAN), '/s/main/scenarios/s1');
    await screen.findByTestId('plan-badge');
    const actions = screen.getByRole('group', { name: 'Actions' });
    for (const name of ['Reset', 'Delete']) {
      const button = within(actions).getByRole<HTMLButtonElement>('button', { name });
      await waitFor(() => expect(button.disabled).toBe(true));
      expect(describedAs(button)).toBe(PLAN_LOCK_REASON);
      fireEvent.click(button);
    }
    expect(screen.getByTestId('plan-lock').textContent).toBe(PLAN_LOCK_REASON);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('on its card in the list; the other card’s stay enabled', async () => {
    app(withScenarios(PLAN), '/s/main/scenarios');
    await screen.findByTestId('plan-badge');
    const card = (tag: string) => document.querySelector<HTMLElement>(`[data-testid=scenario-card][data-tag="${tag}"]`)!;
    for (const name of ['Reset greedy', 'Delete greedy']) {
      const button = within(card('greedy')).getByRole<HTMLButtonElement>('button', { name });
      expect(button.disabled).toBe(true);
      expect(describedAs(button)).toBe(PLAN_LOCK_REASON);
    }
    for (const name of ['Reset asis', 'Delete asis']) expect(within(card('asis')).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(false);
  });
});

describe('9. an experiment with a scenario deleted counts the scenarios it has', () => {
  it('says 7 scenarios of the 8 it made, and acts on 7', async () => {
    const experiment = {
      id: 'e1',
      name: 'sweep',
      algo_name: 'Greedy Slotting',
      dataset_key: 'sample',
      axes: { 'algo_params.rate': [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] },
      repeats: 1,
      size: 8,
      algo_params: {},
      data_params: {},
      created_at: '2026-11-23T08:00:00.000Z',
      completed_at: '2026-11-23T08:05:00.000Z',
      counts: { CREATED: 0, QUEUED: 0, PROCESSING: 0, COMPLETE: 7, FAILED: 0 },
      progress: 1,
      summary: null,
    };
    app(
      {
        [`GET ${BASE}/experiments/e1`]: () => ({ body: experiment }),
        [`GET ${BASE}/experiments/e1/results`]: () => ({ body: { items: [] } }),
      },
      '/s/main/experiments/e1',
    );
    expect((await screen.findByTestId('experiment-size')).textContent).toBe('7 scenarios (of the 8 it made: 1 deleted)');
    expect(screen.getByTestId('experiment-eta').textContent).toBe('All runs finished.');
    expect(screen.getByRole('button', { name: 'Delete 7' })).toBeTruthy();
  });
});

describe('10. a card names the run seed as the scenario page does', () => {
  it('shows "Run seed 2146864712", not the unset seed parameter as "Seed —"', async () => {
    const seedParam = { name: 'seed', label: 'Seed', type: 'integer', required: false, value: null } as const;
    const rate = { name: 'rate', label: 'Cooling rate', type: 'float', required: false, value: 0.995, default: 0.99 } as const;
    const sa = scenario({ id: 's9', tag: 'sa', status: 'COMPLETE', seed: 2146864712, algorithm: { name: 'SA', parameters: [seedParam, rate] } });
    app(
      {
        [`GET ${BASE}/scenarios`]: () => ({ body: [sa] }),
        [`GET ${BASE}/algorithms`]: () => ({ body: { algorithms: ['SA'], items: [{ name: 'SA', description: null, tags: [], seed_parameter: 'seed' }] } }),
        [`GET ${BASE}/plan`]: () => ({ body: { current: null, history: [] } }),
      },
      '/s/main/scenarios',
    );
    const facts = await screen.findByTestId('key-params');
    await waitFor(() => expect(facts.textContent).toBe('Cooling rate 0.995 · Run seed 2146864712'));
    expect(screen.getByTestId('card-seed').textContent).toContain('Run seed');
  });
});

describe('2. Activity says what happened in words, with names', () => {
  const entry = (seq: number, action: string, status: number, targets: Record<string, string>, at = '2026-11-27T14:02:11.600Z'): AuditEntry =>
    ({ seq, at, who: { token_id: null, name: 'local' }, address: '127.0.0.1', action, session_id: 'sid-1', targets: { session: 'sid-1', ...targets }, status, hash: 'h', prev_hash: 'p' });
  const earlier = plan({
    id: 'p1',
    scenario_id: 's2',
    tag: 'asis',
    note: 'as it stands',
    published_at: '2026-11-27T13:00:00.000Z',
    ended: { how: 'superseded', at: '2026-11-27T14:02:11.512Z', note: null, by: { id: 'local', name: 'local' } },
  });
  const withdrawn = plan({
    id: 'p3',
    scenario_id: 's1',
    tag: 'greedy',
    published_at: '2026-11-27T15:00:00.000Z',
    ended: { how: 'withdrawn', at: '2026-11-27T16:00:00.100Z', note: 'demand changed', by: { id: 'local', name: 'local' } },
  });
  const names: ActivityNames = {
    session: 'main',
    scenarios: new Map([
      ['s1', 'greedy'],
      ['s2', 'asis'],
    ]),
    experiments: new Map([['e1', 'depot sweep']]),
    reports: new Map([['r1', 'Slotting decision']]),
    plans: [PLAN, earlier, withdrawn],
  };
  const say = (e: AuditEntry) => {
    const p = phraseOf(e, names);
    return [phraseText(p), p.reason, p.outcome];
  };

  it('phrases each kind of entry with names, the plan’s reason and what it replaced', () => {
    expect(say(entry(9, 'plan.publish', 201, { scenario: 's1' }))).toEqual(['Published greedy as the plan, replacing asis', 'shortest walk', 'Done']);
    expect(say(entry(10, 'plan.withdraw', 200, {}, '2026-11-27T16:00:00.000Z'))).toEqual(['Withdrew greedy as the plan', 'demand changed', 'Done']);
    expect(say(entry(8, 'scenario.delete', 409, { scenario: 's1' }))).toEqual(['Tried to delete the scenario greedy', null, 'Refused: it conflicted with the current state (409)']);
    expect(say(entry(7, 'scenario.run', 202, { scenario: 's2' }))[0]).toBe('Ran asis');
    expect(say(entry(6, 'scenario.reset', 200, { scenario: 's2' }))[0]).toBe('Reset asis, clearing its result and KPIs');
    expect(say(entry(5, 'dataset.upload', 200, { dataset: 'sample' }))[0]).toBe('Uploaded the data sample');
    expect(say(entry(4, 'dataset.derive', 201, { dataset: 'sample', new_dataset: 'sample-b' }))[0]).toBe('Derived the data sample-b from sample');
    expect(say(entry(3, 'experiment.create', 201, { experiment: 'e1' }))[0]).toBe('Created the experiment depot sweep');
    expect(say(entry(2, 'report.create', 201, { report: 'r1' }))[0]).toBe('Saved the report Slotting decision');
    expect(say(entry(1, 'session.create', 201, {}))[0]).toBe('Created the session main');
    expect(say(entry(11, 'scenario.create', 500, { scenario: 's1' }))[2]).toBe('Failed on the server (500)');
  });

  it('says a thing since deleted is deleted, and reads an action it does not know from its name', () => {
    expect(say(entry(1, 'scenario.run', 202, { scenario: '5f0c2a9e-0000-4000-8000-00000000abcd' }))[0]).toBe('Ran a deleted scenario (5f0c2a9e)');
    expect(say(entry(2, 'scenario.archive', 200, { scenario: 's1' }))[0]).toBe('Did “archive” on scenario greedy');
    expect(say(entry(3, 'audit.export', 200, {}))[0]).toBe('Did “export” (audit)');
  });

  it('shows the sentences on the page, a scenario by its tag linking to its page, the outcome in words', async () => {
    app(
      {
        ...withScenarios(PLAN),
        [`GET ${BASE}/experiments`]: () => ({ body: { items: [], next_cursor: null } }),
        [`GET ${BASE}/reports`]: () => ({ body: { items: [], next_cursor: null } }),
        [`GET ${BASE}/audit`]: () => ({ body: { entries: [entry(2, 'plan.publish', 201, { scenario: 's1' }), entry(1, 'scenario.delete', 409, { scenario: 's1' })], next_cursor: null } }),
      },
      '/s/main/activity',
    );
    const rows = await screen.findAllByTestId('activity-entry');
    await waitFor(() => expect(rows[0]!.textContent).toContain('Published greedy as the plan: “shortest walk”'));
    expect(within(rows[0]!).getByRole('link', { name: 'greedy' }).getAttribute('href')).toBe('/s/main/scenarios/s1');
    expect(rows[1]!.textContent).toContain('Tried to delete the scenario greedy');
    expect(rows[1]!.textContent).toContain('Refused: it conflicted with the current state (409)');
    for (const row of rows) expect(row.textContent).not.toMatch(/plan\.publish|scenario\.delete|done 201/);
  });
});

describe('4. the sample data the domain ships loads from the home', () => {
  it('offers it on a session without data, loads it, and moves on to creating a scenario', async () => {
    let loaded = false;
    const server = app(
      {
        [`GET ${BASE}/data`]: () => ({ body: { items: loaded ? [{ key: 'example', created_at: '2026-11-23T08:00:00.000Z' }] : [], next_cursor: null } }),
        [`GET ${BASE}/samples`]: () => ({ body: { items: [{ dataset_name: 'example', files: ['sku_data.csv', 'warehouse_layout.csv'] }] } }),
        [`POST ${BASE}/samples/load`]: () => {
          loaded = true;
          return { body: { dataset_name: 'example', success: true, keys: ['example'], messages: [] } };
        },
        [`GET ${BASE}/plan`]: () => ({ body: { current: null, history: [] } }),
      },
      '/s/main',
    );
    const offer = await screen.findByTestId('sample-offer');
    expect(offer.textContent).toContain('sku_data.csv, warehouse_layout.csv');
    fireEvent.click(within(offer).getByRole('button', { name: 'Load the sample data' }));
    await waitFor(() => expect(document.querySelector('[data-testid=next-step]')?.getAttribute('data-step')).toBe('create'));
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(await post.clone().json()).toEqual({ dataset_name: 'example' });
  });

  it('offers nothing when the domain ships no samples', async () => {
    app({ [`GET ${BASE}/samples`]: () => ({ body: { items: [] } }), [`GET ${BASE}/plan`]: () => ({ body: { current: null, history: [] } }) }, '/s/main');
    await screen.findByTestId('schema-group');
    expect(screen.queryByTestId('sample-offer')).toBeNull();
  });
});
