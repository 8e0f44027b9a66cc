import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, Plan } from '../src/api/decisions.ts';
import { keys } from '../src/api/keys.ts';
import { applyEvent } from '../src/api/live.ts';
import type { Scenario } from '../src/api/types.ts';
import { conflictPlace } from '../src/cycles/conflict-words.ts';
import { churnWords, shareText, staleSentence } from '../src/cycles/stale-words.ts';
import { phraseOf, phraseText, type ActivityNames } from '../src/decisions/activity-phrases.ts';
import { KNOWN_ACTIONS } from '../src/decisions/audit-actions.ts';
import type { Route } from './answering-fetch.ts';
import { kpi, scenario } from './fixtures.ts';
import { app, BASE } from './render-app.tsx';

/**
 * The planning cycle in the dashboard (issue #42 §5) against answers from a table: stale marks in words,
 * Rebase with its conflicts, Re-plan on the plan card, churn in Compare, a dataset's versions and their
 * differences. The browser test (web/e2e/cycles.test.ts) runs the same cycle on the real server.
 */

const MOVED = { dataset: 'week49', from_version: 1, to_version: 2 };

describe('stale marks and churn in words', () => {
  it('says what was computed on which version, and what it is now', () => {
    expect(staleSentence(MOVED, { kind: 'scenario', dataset: 'week49', computed: true })).toBe('Computed on week49 v1; week49 is now v2.');
    expect(staleSentence(MOVED, { kind: 'scenario', dataset: 'week49', computed: false })).toBe('Created on week49 v1; week49 is now v2.');
    expect(staleSentence(MOVED, { kind: 'scenario', dataset: 'pets', computed: true })).toBe('Its data pets was derived from week49 v1; week49 is now v2.');
    expect(staleSentence(MOVED, { kind: 'plan', dataset: 'week49' })).toBe('Computed on week49 v1; week49 is now v2.');
    expect(staleSentence(MOVED, { kind: 'dataset', dataset: 'pets' })).toBe('Derived from week49 v1; week49 is now v2.');
  });

  it('tells churn as rows and a share that never rounds a change away', () => {
    expect(churnWords({ rows_changed: 141, share: 0.372 })).toBe('141 rows differ from the plan (37 %)');
    expect(churnWords({ rows_changed: 1, share: 0.001 })).toBe('1 row differs from the plan (< 1 %)');
    expect(churnWords({ rows_changed: 0, share: 0 })).toBe('Same result as the plan');
    expect(shareText(0.999)).toBe('> 99 %');
    expect(shareText(1)).toBe('100 %');
  });

  it('names the place of a conflicting edit as a planner counts', () => {
    expect(conflictPlace('edits[0]')).toBe('edit 1');
    expect(conflictPlace('edits[1].insert[0]')).toBe('edit 2, inserted row 1');
    expect(conflictPlace('edits[2].update.where.zone')).toBe('edit 3, its condition on zone');
    expect(conflictPlace('edits[0].update.scale.daily_picks')).toBe('edit 1, its factor on daily picks');
    expect(conflictPlace('tables.sku_data')).toBe('tables.sku_data');
  });
});

describe('live updates of new data', () => {
  it('reads the scenarios and the plan again when a dataset is written: their stale marks may have moved', () => {
    const client = new QueryClient();
    client.setQueryData(keys.scenarios('main'), []);
    client.setQueryData(keys.plan('main'), { current: null, history: [] });
    client.setQueryData(keys.experiments('main'), []);
    applyEvent(client, 'main', { id: 1, type: 'dataset.uploaded', session_id: 'x', at: '', dataset_key: 'week49' });
    expect(client.getQueryState(keys.scenarios('main'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(keys.plan('main'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(keys.experiments('main'))?.isInvalidated).toBe(false);
  });
});

const asis = scenario({ id: 'a', tag: 'as-is', input_data_id: 'week49', status: 'COMPLETE', progress: 1, stale: MOVED, dataset_version: 1, result_dataset_version: 1 });
const pets = scenario({ id: 'w', tag: 'pets', input_data_id: 'pets', status: 'COMPLETE', progress: 1, parent_id: 'a', stale: MOVED });
const PETS_LINEAGE = {
  key: 'pets',
  parent: 'week49',
  version: 1,
  parent_version: 1,
  stale: MOVED,
  edits: [{ table: 'sku_data', update: { where: { zone: 'Z' }, scale: { daily_picks: 1.1 } }, rows: 5 }],
};
const CONFLICT = { scenario_id: 'w', tag: 'pets', dataset: 'pets', path: 'edits[0]', message: "matched 5 rows of table 'sku_data' before and matches none in the new data" };

const listing = (list: () => Scenario[], plan: Plan | null = null): Record<string, Route> => ({
  [`GET ${BASE}/scenarios`]: () => ({ body: list() }),
  [`GET ${BASE}/plan`]: () => ({ body: { current: plan, history: [] } }),
});

describe('Rebase from a stale scenario card', () => {
  it('marks the cards in words, lists a conflict with its scenario, edit and reason, and rebases the tree without it when asked', async () => {
    const bodies: unknown[] = [];
    let list = [asis, pets];
    app(
      {
        ...listing(() => list),
        [`GET ${BASE}/data/pets/lineage`]: () => ({ body: PETS_LINEAGE }),
        [`POST ${BASE}/scenarios/a/rebase`]: async (request) => {
          const body = (await request.json()) as { on_conflict?: string };
          bodies.push(body);
          if (body.on_conflict !== 'skip') return { status: 409, body: { code: 'REBASE_CONFLICT', detail: '1 edit does not fit the new data, nothing was stored', conflicts: [CONFLICT] } };
          const made = [
            scenario({ id: 'a2', tag: 'as-is @v2', input_data_id: 'week49', rebased_from: 'a', status: 'QUEUED' }),
            scenario({ id: 'w2', tag: 'pets @v2', input_data_id: 'pets @v2', rebased_from: 'w', parent_id: 'a2', status: 'QUEUED' }),
          ];
          list = [...list, ...made];
          return { status: 201, body: { scenarios: made } };
        },
      },
      '/s/main/scenarios',
    );
    const card = (tag: string) => screen.findAllByTestId('scenario-card').then((cards) => cards.find((c) => c.dataset.tag === tag)!);
    const asisCard = await card('as-is');
    expect(within(asisCard).getByTestId('stale-note').textContent).toContain('Computed on week49 v1; week49 is now v2.');
    expect(within(await card('pets')).getByTestId('stale-note').textContent).toContain('Its data pets was derived from week49 v1; week49 is now v2.');

    fireEvent.click(within(asisCard).getByRole('button', { name: 'Rebase as-is onto the new data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebase onto the new data' });
    // With a what-if under it, the whole tree is the default.
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: 'as-is and its what-if' }).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rebase' }));
    const conflict = await within(dialog).findByTestId('rebase-conflict');
    await waitFor(() => expect(conflict.textContent).toContain('“sku_data: daily picks × 1.10 where zone = Z”'));
    expect(conflict.textContent).toBe("pets: edit 1 “sku_data: daily picks × 1.10 where zone = Z” does not fit: matched 5 rows of table 'sku_data' before and matches none in the new data.");
    expect(bodies).toEqual([{ tree: true, run: true, on_conflict: 'fail' }]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Rebase without this edit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies[1]).toEqual({ tree: true, run: true, on_conflict: 'skip' });
    await waitFor(async () => expect(within(await card('as-is')).getByTestId('rebased-as').textContent).toBe('Rebased as as-is @v2.'));
    expect(within(await card('pets')).getByTestId('rebased-as').textContent).toBe('Rebased as pets @v2.');
  });

  it('rebases one scenario alone when chosen, and shows a refusal other than a conflict as it is', async () => {
    const bodies: unknown[] = [];
    app(
      {
        ...listing(() => [asis, pets]),
        [`POST ${BASE}/scenarios/a/rebase`]: async (request) => {
          bodies.push(await request.json());
          return { status: 404, body: { code: 'ALGORITHM_NOT_FOUND', detail: "the domain has no algorithm 'Old Slotting' any more" } };
        },
      },
      '/s/main/scenarios',
    );
    const asisCard = (await screen.findAllByTestId('scenario-card')).find((c) => c.dataset.tag === 'as-is')!;
    fireEvent.click(within(asisCard).getByRole('button', { name: 'Rebase as-is onto the new data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebase onto the new data' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Only as-is' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Run the new scenario at once/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rebase' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain("the domain has no algorithm 'Old Slotting' any more");
    expect(within(dialog).queryByTestId('rebase-conflicts')).toBeNull();
    expect(bodies).toEqual([{ tree: false, run: false, on_conflict: 'fail' }]);
  });
});

const greedy = scenario({ id: 's1', tag: 'greedy', input_data_id: 'week49', status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 90) }, stale: MOVED });
const PLAN: Plan = {
  id: 'p1',
  scenario_id: 's1',
  tag: 'greedy',
  dataset_key: 'week49',
  algorithm: 'Greedy Slotting',
  kpis: greedy.kpis,
  note: 'shortest walk',
  published_by: { id: 'local', name: 'local' },
  published_at: '2026-11-27T14:02:11.512Z',
  ended: null,
  dataset_version: 1,
  stale: MOVED,
};

describe('Re-plan on the plan card', () => {
  it('marks the plan stale, re-plans, and shows the successor with its KPI moves, its churn and the way to Compare', async () => {
    let list: Scenario[] = [greedy];
    const successor = scenario({ id: 's9', tag: 'greedy @v2', input_data_id: 'week49', replans: 's1', rebased_from: 's1', status: 'QUEUED' });
    const posts: unknown[] = [];
    app(
      {
        ...listing(() => list, PLAN),
        [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'week49', kind: 'master', tables: [] }], next_cursor: null } }),
        [`POST ${BASE}/plan/replan`]: async (request) => {
          posts.push(await request.json());
          list = [greedy, { ...successor, status: 'COMPLETE', progress: 1, kpis: { travel: kpi('travel', 85) }, plan_churn: { rows_changed: 12, share: 0.3 } }];
          return { status: 201, body: successor };
        },
      },
      '/s/main',
    );
    const home = await screen.findByTestId('home-plan');
    expect((await within(home).findByTestId('stale-note')).textContent).toContain('Computed on week49 v1; week49 is now v2.');
    fireEvent.click(within(home).getByRole('button', { name: 'Re-plan on the newest data' }));
    const made = await within(home).findByTestId('replan-successor');
    await waitFor(() => expect(made.dataset.status).toBe('COMPLETE'));
    expect(posts).toEqual([{ run: true, on_conflict: 'fail' }]);
    expect(made.textContent).toContain('Re-planned as greedy @v2');
    expect(within(made).getByTestId('replan-kpis').textContent).toBe('travel: 90 → 85 m (−5)');
    expect(within(made).getByTestId('replan-churn').textContent).toContain('Churn: 12 rows differ from the plan (30 %).');
    expect(within(made).getByRole('link', { name: 'Compare with the plan' }).getAttribute('href')).toBe('#/s/main/compare?ids=s1%2Cs9&baseline=s1');
  });

  it('lists the edits that no longer fit and re-plans without them when asked', async () => {
    const posts: { on_conflict?: string }[] = [];
    app(
      {
        ...listing(() => [greedy], PLAN),
        [`GET ${BASE}/data/pets/lineage`]: () => ({ body: PETS_LINEAGE }),
        [`POST ${BASE}/plan/replan`]: async (request) => {
          const body = (await request.json()) as { on_conflict?: string };
          posts.push(body);
          if (body.on_conflict === 'skip') return { status: 201, body: scenario({ id: 's9', tag: 'greedy @v2', replans: 's1', status: 'QUEUED' }) };
          return { status: 409, body: { code: 'REBASE_CONFLICT', detail: 'conflict', conflicts: [{ ...CONFLICT, tag: 'greedy', scenario_id: 's1' }] } };
        },
      },
      '/s/main',
    );
    const home = await screen.findByTestId('home-plan');
    fireEvent.click(await within(home).findByRole('button', { name: 'Re-plan on the newest data' }));
    expect((await within(home).findByTestId('rebase-conflict')).textContent).toMatch(/^greedy \(data pets\): edit 1 .*does not fit: matched 5 rows/);
    fireEvent.click(within(home).getByRole('button', { name: 'Re-plan without this edit' }));
    expect((await within(home).findByTestId('replan-successor')).textContent).toContain('Re-planned as greedy @v2');
    expect(posts.map((p) => p.on_conflict)).toEqual(['fail', 'skip']);
  });
});

describe('the published plan’s own card and page', () => {
  it('point to the Re-plan instead of a Rebase, and the scenario page carries the mark too', async () => {
    app({ ...listing(() => [greedy], PLAN), [`GET ${BASE}/scenarios/s1`]: () => ({ body: greedy }), [`GET ${BASE}/scenarios/s1/views`]: () => ({ body: { items: [] } }) }, '/s/main/scenarios');
    const card = (await screen.findAllByTestId('scenario-card')).find((c) => c.dataset.tag === 'greedy')!;
    const note = within(card).getByTestId('stale-note');
    expect((await within(note).findByRole('link', { name: 'Re-plan from the plan card' })).getAttribute('href')).toBe('#/s/main/');
    expect(within(note).queryByRole('button', { name: /Rebase/ })).toBeNull();
    cleanup();
    app({ ...listing(() => [greedy], PLAN), [`GET ${BASE}/scenarios/s1`]: () => ({ body: greedy }), [`GET ${BASE}/scenarios/s1/views`]: () => ({ body: { items: [] } }) }, '/s/main/scenarios/s1');
    await screen.findByTestId('scenario-title');
    expect((await screen.findByTestId('stale-note')).textContent).toContain('Computed on week49 v1; week49 is now v2.');
  });
});

describe('churn in Compare', () => {
  it('shows each result table’s rows added, removed and changed with examples, and the churn against the plan beside the KPIs', async () => {
    const s1 = scenario({ id: 's1', tag: 'greedy', status: 'COMPLETE', plan_churn: { rows_changed: 3, share: 0.3 } });
    const s2 = scenario({ id: 's2', tag: 'anneal', status: 'COMPLETE', plan_churn: { rows_changed: 4, share: 0.4 } });
    const planned = scenario({ id: 's3', tag: 'asis', status: 'COMPLETE', plan_churn: { rows_changed: 0, share: 0 } });
    app(
      {
        ...listing(() => [s1, s2, planned], { ...PLAN, scenario_id: 's3', tag: 'asis', stale: null }),
        [`GET ${BASE}/compare`]: () => ({
          body: {
            baseline: 's1',
            scenarios: [s1, s2].map((s) => ({ id: s.id, tag: s.tag, status: s.status, algorithm: s.algorithm.name, dataset_key: 'week49' })),
            kpis: [],
            parameters: [],
            results: [
              {
                scenario_id: 's2',
                tables: [
                  {
                    table: 'assignments',
                    status: 'compared',
                    key: ['sku'],
                    rows_added: 0,
                    rows_removed: 0,
                    rows_changed: 2,
                    rows_unchanged: 8,
                    added: [],
                    removed: [],
                    changed: [{ key: { sku: 'SKU-1' }, changes: { location: { from: 'A-01', to: 'B-02' } } }],
                  },
                ],
              },
            ],
          },
        }),
        [`GET ${BASE}/compare/views`]: () => ({ body: { items: [] } }),
      },
      '/s/main/compare?ids=s1,s2&baseline=s1',
    );
    const changes = await screen.findByTestId('scenario-result-changes');
    expect(changes.dataset.scenario).toBe('anneal');
    expect(within(changes).getByTestId('result-tables').textContent).toContain(
      'assignments: 2 of 10 rows differ (20 %). assignments: 0 rows added, 0 rows removed, 2 rows changed (rows matched by sku)',
    );
    expect(within(changes).getByText('changed: sku SKU-1: location A-01 → B-02')).toBeTruthy();
    expect(within(changes).getByTestId('plan-churn').textContent).toBe('Against the plan: 4 rows differ from the plan (40 %).');
    // The section sits before the KPIs: what moved, then how much it is worth.
    const section = screen.getByTestId('result-changes');
    const kpis = screen.getByRole('heading', { name: /^KPIs/ });
    expect(section.compareDocumentPosition(kpis) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('a dataset’s versions on the Data page', () => {
  const v = (rows: unknown[][]) => ({
    key: 'week49',
    kind: 'master',
    tables: { warehouse_layout: { columns: [{ name: 'location', type: 'string' }, { name: 'x', type: 'float' }], rows } },
  });
  const V1 = v([['A', 1], ['B', 2], ['C', 3]]);
  const V2 = v([['A', 1], ['B', 5], ['D', 4]]);

  it('lists the versions with who, when and rows, diffs any two by the table’s key, and marks a stale what-if dataset', async () => {
    const server = app(
      {
        [`GET ${BASE}/data`]: () => ({
          body: {
            items: [
              { key: 'week49', kind: 'master', created_at: '2026-12-01T08:00:00.000Z', tables: [], version: 2, parent: null, parent_version: null, stale: null },
              { key: 'pets', kind: 'derived', created_at: '2026-11-25T08:00:00.000Z', tables: [], version: 1, parent: 'week49', parent_version: 1, stale: MOVED },
            ],
            next_cursor: null,
          },
        }),
        [`GET ${BASE}/data/week49`]: (request) => ({ body: new URL(request.url).searchParams.get('version') === '1' ? V1 : V2 }),
        [`GET ${BASE}/data/week49/versions`]: () => ({
          body: {
            versions: [
              { version: 2, created_at: '2026-12-01T08:00:00.000Z', created_by: 'planner', current: true, tables: [{ name: 'warehouse_layout', rows: 3, hash: 'b' }] },
              { version: 1, created_at: '2026-11-24T08:00:00.000Z', created_by: null, current: false, tables: [{ name: 'warehouse_layout', rows: 3, hash: 'a' }] },
            ],
          },
        }),
      },
      '/s/main/data',
    );
    expect((await screen.findAllByTestId('dataset-stale'))[0]!.textContent).toContain('Derived from week49 v1; week49 is now v2.');
    fireEvent.click(screen.getByRole('button', { name: 'Versions of week49' }));
    const versions = await screen.findByTestId('dataset-versions');
    const rows = await within(versions).findAllByTestId('dataset-version');
    expect(rows.map((r) => r.dataset.version)).toEqual(['2', '1']);
    expect(rows[0]!.textContent).toContain('planner');
    expect(rows[0]!.textContent).toContain('current');
    expect(rows[1]!.textContent).toContain('sample data at start-up');
    expect(rows[1]!.textContent).toContain('warehouse_layout 3');

    fireEvent.click(within(versions).getByRole('button', { name: 'Show differences' }));
    const diff = await within(versions).findByTestId('version-tables');
    expect(diff.textContent).toContain('warehouse_layout: 1 row added, 1 row removed, 1 row changed (rows matched by location)');
    expect(within(diff).getByText('changed: location B: x 2 → 5')).toBeTruthy();
    expect(server.requests.some((r) => new URL(r.url).searchParams.get('version') === '1')).toBe(true);

    // The same version on both sides is nothing to compare.
    fireEvent.change(within(versions).getByLabelText('Differences from'), { target: { value: '2' } });
    expect(within(versions).getByRole<HTMLButtonElement>('button', { name: 'Show differences' }).disabled).toBe(true);
  });

  it('marks a what-if dataset derived from an old version in its preview, with a Rebase for each scenario on it', async () => {
    app(
      {
        ...listing(() => [pets]),
        [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'pets', kind: 'derived', tables: [], version: 1, parent: 'week49', parent_version: 1, stale: MOVED }], next_cursor: null } }),
        [`GET ${BASE}/data/pets`]: () => ({ body: { key: 'pets', tables: {} } }),
        [`GET ${BASE}/data/pets/lineage`]: () => ({ body: PETS_LINEAGE }),
        [`GET ${BASE}/data/pets/versions`]: () => ({ body: { versions: [{ version: 1, created_at: '2026-11-25T08:00:00.000Z', created_by: 'planner', current: true, tables: [] }] } }),
      },
      '/s/main/data',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Preview pets' }));
    const origin = await screen.findByTestId('dataset-parent');
    expect(within(origin).getByTestId('parent-version').textContent).toBe(' v1');
    expect((await within(origin).findByTestId('stale-note')).textContent).toContain('Derived from week49 v1; week49 is now v2.');
    expect(await within(origin).findByRole('button', { name: 'Rebase pets onto the new data' })).toBeTruthy();
  });
});

describe('Activity says what a rebase and a re-plan did', () => {
  const entry = (action: string, status: number, targets: Record<string, string>): AuditEntry =>
    ({ seq: 1, at: '2026-12-01T09:30:00.000Z', who: { token_id: null, name: 'local' }, address: '127.0.0.1', action, session_id: 'sid-1', targets: { session: 'sid-1', ...targets }, status, hash: 'h', prev_hash: 'p' });
  const names: ActivityNames = {
    session: 'main',
    scenarios: new Map([['a', 'as-is'], ['a2', 'as-is @v2'], ['s1', 'greedy'], ['s9', 'greedy @v2']]),
    plans: [PLAN],
  };
  const say = (e: AuditEntry) => phraseText(phraseOf(e, names));

  it('phrases them with the scenarios named', () => {
    expect(say(entry('scenario.rebase', 201, { rebased: 'a', scenario: 'a2' }))).toBe('Rebased as-is onto the new data as as-is @v2');
    expect(say(entry('scenario.rebase', 201, { rebased: 'a', scenario: 'a2', new_scenario: 'w2' }))).toBe('Rebased as-is and its what-ifs onto the new data as as-is @v2');
    expect(say(entry('scenario.rebase', 409, { rebased: 'a' }))).toBe('Tried to rebase as-is onto new data');
    expect(say(entry('plan.replan', 201, { plan: 'p1', scenario: 's9' }))).toBe('Re-planned greedy on the newest data as greedy @v2');
    expect(say(entry('plan.replan', 409, {}))).toBe('Tried to re-plan the plan on the newest data');
    expect(KNOWN_ACTIONS).toEqual(expect.arrayContaining(['scenario.rebase', 'plan.replan']));
  });
});
