import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRouter } from '../src/router.tsx';
import { branchesUnderParents, commonParent } from '../src/scenarios/branch-tree.ts';
import type { Route } from './answering-fetch.ts';
import { kpi, scenario } from './fixtures.ts';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/main';
/** The pages load lazily: on a busy machine the first find may take longer than the default second. */
const SLOW = { timeout: 10_000 };

const root = scenario({ id: 'r', tag: 'base', status: 'COMPLETE', kpis: { travel: kpi('travel', 100), moves: kpi('moves', 5) } });
const mid = scenario({ id: 'm', tag: 'demand +10%', status: 'COMPLETE', parent_id: 'r', kpis: { travel: kpi('travel', 120), moves: kpi('moves', 5) } });
const leaf = scenario({ id: 'l', tag: 'demand +10%, 30 moves', status: 'CREATED', parent_id: 'm' });

const SCALE = { table: 'sku_data', update: { where: { category: 'dairy' }, scale: { daily_picks: 1.1 } }, rows: 37 };

function at(path: string, routes: Record<string, Route>) {
  const router = buildRouter(createMemoryHistory({ initialEntries: [path] }));
  return renderWithApi(<RouterProvider router={router} />, {
    'GET /api/v1/sessions': () => ({ body: { sessions: [{ id: 'main', display_name: 'main' }] } }),
    [`GET ${BASE}/scenarios`]: () => ({ body: [root, mid, leaf] }),
    [`GET ${BASE}/data/example/parameters`]: () => ({ body: { name: 'example', parameters: [] } }),
    [`GET ${BASE}/scenarios/m/views`]: () => ({ body: { items: [] } }),
    [`GET ${BASE}/scenarios/m/logs`]: () => ({ body: { lines: [], truncated: false, error: null } }),
    [`GET ${BASE}/kpis`]: () => ({ body: { kpis: [], items: [] } }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { algorithms: [], items: [] } }),
    [`GET ${BASE}/compare/views`]: () => ({ body: { items: [] } }),
    ...routes,
  });
}

/** A lineage node of `s`; with `changes`, a branch of its parent that set those parameters and made those edits. */
const node = (s: typeof root, changes?: { parameters?: unknown[]; edits?: unknown[] }) => ({
  id: s.id,
  tag: s.tag,
  status: s.status,
  parent_id: s.parent_id,
  parent_deleted: null,
  dataset_key: changes?.edits ? `${s.tag} data` : 'example',
  changes: changes
    ? {
        parameters: changes.parameters ?? [],
        data: changes.edits
          ? { relation: 'family', from: 'example', to: `${s.tag} data`, common: 'example', from_steps: [], to_steps: [{ dataset: `${s.tag} data`, parent: 'example', edits: changes.edits }] }
          : null,
      }
    : null,
});

describe('the chain on the scenario page', () => {
  it('shows root → … → this, what it changed against its parent, its branches, and a link to compare with the parent', async () => {
    at('/s/main/scenarios/m', {
      [`GET ${BASE}/scenarios/m`]: () => ({ body: mid }),
      [`GET ${BASE}/scenarios/m/lineage`]: () => ({
        body: {
          ancestors: [node(root)],
          scenario: node(mid, { parameters: [{ name: 'max_moves', from: 25, to: 30 }], edits: [SCALE] }),
          descendants: [{ ...node(leaf, { parameters: [{ name: 'max_moves', from: 30, to: 40 }] }), children: [] }],
          descendants_truncated: false,
        },
      }),
    });
    const steps = await screen.findByTestId('chain-steps', {}, SLOW);
    expect([...steps.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['base', 'demand +10%']);
    expect(steps.querySelector('[aria-current=page]')?.textContent).toBe('demand +10%');
    const lineage = await screen.findByTestId('lineage', {}, SLOW);
    expect(within(lineage).getByTestId('parameter-changes').textContent).toBe('Max moves: 25 → 30');
    expect(within(lineage).getByTestId('edit-sentence').textContent).toBe('daily picks × 1.10 where category = dairy: 37 rows');
    expect(lineage.textContent).toContain('Data: demand +10% data, derived from example:');
    expect(within(lineage).getByRole('link', { name: leaf.tag })).toBeTruthy();
    expect(within(lineage).getByText('1 parameter')).toBeTruthy();
    const compare = screen.getByRole('link', { name: 'Compare with base' });
    expect(compare.getAttribute('href')).toContain('ids=r%2Cm');
  });

  it('shows nothing of a lineage for a scenario that is neither a branch nor branched from', async () => {
    at('/s/main/scenarios/m', {
      [`GET ${BASE}/scenarios/m`]: () => ({ body: mid }),
      [`GET ${BASE}/scenarios/m/lineage`]: () => ({ body: { ancestors: [], scenario: node(mid), descendants: [], descendants_truncated: false } }),
    });
    await screen.findByTestId('scenario-title', {}, SLOW);
    await waitFor(() => expect(screen.getByRole('link', { name: 'What if…' })).toBeTruthy());
    expect(screen.queryByTestId('chain-steps')).toBeNull();
    expect(screen.queryByTestId('lineage')).toBeNull();
  });

  it('says so when the parent was deleted', async () => {
    at('/s/main/scenarios/m', {
      [`GET ${BASE}/scenarios/m`]: () => ({ body: { ...mid, parent_id: null } }),
      [`GET ${BASE}/scenarios/m/lineage`]: () => ({
        body: { ancestors: [], scenario: { ...node(mid), parent_id: null, parent_deleted: { id: 'r', tag: 'base' } }, descendants: [], descendants_truncated: false },
      }),
    });
    expect((await screen.findByTestId('parent-deleted', {}, SLOW)).textContent).toBe('Branched from base, since deleted: a root now.');
  });
});

const COMPARISON = {
  baseline: 'r',
  scenarios: [
    { id: 'r', tag: 'base', status: 'COMPLETE', algorithm: 'Greedy Slotting', dataset_key: 'example' },
    { id: 'm', tag: 'demand +10%', status: 'COMPLETE', algorithm: 'Greedy Slotting', dataset_key: 'example-demand' },
  ],
  kpis: [
    { name: 'travel', unit: 'm', better_when: 'LOWER', threshold: null, best: 'r', values: [
      { scenario_id: 'r', value: 100, delta: 0, relative_delta: 0, comparison: 'equal' },
      { scenario_id: 'm', value: 120, delta: 20, relative_delta: 0.2, comparison: 'worse' },
    ] },
    { name: 'moves', unit: '', better_when: 'HIGHER', threshold: null, best: 'r', values: [
      { scenario_id: 'r', value: 5, delta: 0, relative_delta: 0, comparison: 'equal' },
      { scenario_id: 'm', value: 5, delta: 0, relative_delta: 0, comparison: 'equal' },
    ] },
  ],
  parameters: [
    { name: 'max_moves', values: [{ scenario_id: 'r', value: 25 }, { scenario_id: 'm', value: 30 }], differs: true },
    { name: 'mode', values: [{ scenario_id: 'r', value: 'fast' }, { scenario_id: 'm', value: 'fast' }], differs: false },
  ],
  inputs: [
    {
      scenario_id: 'm',
      parameters: [{ name: 'max_moves', from: 25, to: 30 }],
      data: { relation: 'family', from: 'example', to: 'example-demand', common: 'example', from_steps: [], to_steps: [{ dataset: 'example-demand', parent: 'example', edits: [SCALE] }] },
    },
  ],
};

describe('compare with what-ifs', () => {
  const open = () =>
    at('/s/main/compare?ids=m,r', {
      [`GET ${BASE}/compare`]: () => ({ body: COMPARISON }),
    });

  it('shows the Inputs section: the parameters and the data edits that differ from the baseline', async () => {
    open();
    const inputs = await screen.findByTestId('scenario-inputs', {}, SLOW);
    expect(inputs.dataset.scenario).toBe('demand +10%');
    expect(within(inputs).getByTestId('input-parameters').textContent).toBe('Max moves: 25 → 30');
    expect(within(inputs).getByTestId('edit-sentence').textContent).toBe('daily picks × 1.10 where category = dairy: 37 rows');
  });

  it('takes the parent as the baseline when the others are its branches', async () => {
    const { server } = open();
    await screen.findByTestId('scenario-inputs', {}, SLOW);
    const asked = server.requests.find((r) => r.url.includes('/compare?'));
    expect(new URL(asked!.url).searchParams.get('baseline')).toBe('r');
  });

  it('shows only the parameters and KPIs that differ when asked', async () => {
    open();
    await screen.findByTestId('scenario-inputs', {}, SLOW);
    expect(screen.getAllByTestId('kpi').map((k) => k.dataset.kpi)).toEqual(['travel', 'moves']);
    expect(screen.getByRole('rowheader', { name: /Mode/ })).toBeTruthy();
    fireEvent.click(screen.getByTestId('only-differences'));
    await waitFor(() => expect(screen.getAllByTestId('kpi').map((k) => k.dataset.kpi)).toEqual(['travel']));
    expect(screen.queryByRole('rowheader', { name: /Mode/ })).toBeNull();
    expect(screen.queryByRole('rowheader', { name: /Algorithm/ })).toBeNull();
    expect(screen.getByRole('rowheader', { name: /Max moves/ })).toBeTruthy();
  });
});

describe('branches on the scenarios page', () => {
  it('places each branch under its parent, depth by depth, and a branch whose parent is not shown as a root', () => {
    const orphan = scenario({ id: 'o', tag: 'orphan', parent_id: 'gone' });
    const placed = branchesUnderParents([leaf, root, orphan, mid]);
    expect(placed.map((p) => `${p.scenario.tag}@${p.depth}`)).toEqual(['base@0', 'demand +10%@1', 'demand +10%, 30 moves@2', 'orphan@0']);
  });

  it('finds the parent common to the other picks', () => {
    expect(commonParent(['m', 'r'], [root, mid, leaf])).toBe('r');
    expect(commonParent(['m', 'l', 'r'], [root, mid, leaf])).toBeUndefined();
  });

  it('shows the switch once a branch exists, and the branches under their parent when it is on', async () => {
    at('/s/main/scenarios', {
      [`GET ${BASE}/data`]: () => ({ body: { items: [], next_cursor: null } }),
    });
    const toggle = await screen.findByRole('switch', { name: 'Branches under their parent' }, SLOW);
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('scenario-list').className).toBe('branch-list'));
    const places = [...screen.getByTestId('scenario-list').querySelectorAll<HTMLElement>('.branch-place')];
    expect(places.map((p) => `${p.querySelector('[data-testid=scenario-card]')!.getAttribute('data-tag')}@${p.dataset.depth}`)).toEqual([
      'base@0',
      'demand +10%@1',
      'demand +10%, 30 moves@2',
    ]);
  });
});

describe('a derived dataset on the Data page', () => {
  it('names its parent and lists its edits', async () => {
    at('/s/main/data', {
      [`GET ${BASE}/data`]: () => ({
        body: { items: [{ key: 'example-demand', kind: 'derived', created_at: '2026-11-27T00:00:00Z', tables: [{ name: 'sku_data', columns: [], rows: 200 }] }], next_cursor: null },
      }),
      [`GET ${BASE}/schemas`]: () => ({ body: { items: [] } }),
      [`GET ${BASE}/data/example-demand`]: () => ({
        body: { key: 'example-demand', kind: 'derived', tables: { sku_data: { columns: [{ name: 'sku', type: 'string' }], rows: [['A']] } } },
      }),
      [`GET ${BASE}/data/example-demand/lineage`]: () => ({ body: { key: 'example-demand', parent: 'example', edits: [SCALE] } }),
      [`GET ${BASE}/data/example-demand/views`]: () => ({ body: { items: [] } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Preview example-demand' }, SLOW));
    const parent = await screen.findByTestId('dataset-parent', {}, SLOW);
    expect(parent.textContent).toContain('Derived from example with these edits:');
    expect(within(parent).getByTestId('edit-sentence').textContent).toBe('daily picks × 1.10 where category = dairy: 37 rows');
  });
});
