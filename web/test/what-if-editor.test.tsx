import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRouter } from '../src/router.tsx';
import { applyEdits } from '../src/whatif/apply-edits.ts';
import { factorOf } from '../src/whatif/ChangeRows.tsx';
import { splitEditErrors } from '../src/whatif/edit-errors.ts';
import { editSentence } from '../src/whatif/edit-sentence.ts';
import type { Route } from './answering-fetch.ts';
import { scenario } from './fixtures.ts';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/main';
/** The page loads lazily: on a busy machine the first find may take longer than the default second. */
const SLOW = { timeout: 10_000 };

const base = scenario({
  id: 's1',
  tag: 'base',
  status: 'COMPLETE',
  input_data_id: 'example',
  algorithm: {
    name: 'Greedy Slotting',
    parameters: [
      { name: 'max_moves', type: 'integer', required: true, value: 25, default: 10 },
      { name: 'mode', type: 'enum', required: true, value: 'fast', default: 'fast', choices: ['fast', 'slow'] },
    ],
  },
});

const SKUS = {
  key: 'example',
  kind: 'master',
  tables: {
    sku_data: {
      columns: [
        { name: 'sku', type: 'string' },
        { name: 'category', type: 'string' },
        { name: 'daily_picks', type: 'float' },
      ],
      rows: [
        ['SKU-1', 'dairy', 100],
        ['SKU-2', 'pet', 50],
        ['SKU-3', 'dairy', 20],
      ],
    },
  },
};

const SCHEMAS = {
  items: [
    {
      name: 'sku_data',
      description: null,
      required: true,
      file_names: ['sku_data.csv'],
      tables: [
        {
          name: 'sku_data',
          description: null,
          columns: [
            { name: 'sku', type: 'string', required: true, nullable: false, key: 'primary', unit: null, description: null },
            { name: 'category', type: 'string', required: true, nullable: false, key: null, unit: null, description: null },
            { name: 'daily_picks', type: 'float', required: true, nullable: false, key: null, unit: null, description: null },
          ],
        },
      ],
    },
  ],
};

function openEditor(routes: Record<string, Route> = {}) {
  const router = buildRouter(createMemoryHistory({ initialEntries: ['/s/main/scenarios/s1/what-if'] }));
  return renderWithApi(<RouterProvider router={router} />, {
    'GET /api/v1/sessions': () => ({ body: { sessions: [{ id: 'main', display_name: 'main' }] } }),
    [`GET ${BASE}/scenarios/s1`]: () => ({ body: base }),
    [`GET ${BASE}/scenarios`]: () => ({ body: [base] }),
    [`GET ${BASE}/data/example`]: () => ({ body: SKUS }),
    [`GET ${BASE}/data/example/parameters`]: () => ({ body: { name: 'example', parameters: [] } }),
    [`GET ${BASE}/schemas`]: () => ({ body: SCHEMAS }),
    ...routes,
  });
}

const sentences = () => screen.queryAllByTestId('edit-sentence').map((e) => e.textContent);
const cell = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });

/** Filters the grid to category = dairy and scales daily_picks by +10 % for the rows shown. */
async function scaleDairyPicks() {
  await screen.findByTestId('edit-grid', {}, SLOW);
  fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
  fireEvent.change(screen.getByLabelText('Column of condition 1'), { target: { value: 'category' } });
  fireEvent.change(screen.getByLabelText('Value of condition 1'), { target: { value: 'dairy' } });
  await waitFor(() => expect(screen.getByTestId('shown-count').textContent).toBe('2 of 3 rows shown'));
  const change = screen.getByTestId('change-rows');
  fireEvent.change(within(change).getByLabelText('Column to change'), { target: { value: 'daily_picks' } });
  fireEvent.change(within(change).getByLabelText('Percentage'), { target: { value: '10' } });
  fireEvent.click(within(change).getByRole('button', { name: 'Apply' }));
}

describe('the what-if editor', () => {
  // happy-dom has no layout: give the grid's scrolling viewport the size a browser would, so the
  // virtualiser renders the first rows.
  const saved = ['clientHeight', 'clientWidth'].map((name) => [name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)] as const);
  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 420 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  });
  afterEach(() => {
    for (const [name, descriptor] of saved) if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
  });

  it('prefills the base scenario’s parameters', async () => {
    openEditor();
    expect((await screen.findByLabelText<HTMLInputElement>(/Max moves|max_moves/, {}, SLOW)).value).toBe('25');
    expect(screen.getByLabelText<HTMLInputElement>('Tag').value).toBe('base what-if');
  });

  it('scales a column for the filtered rows, says so in a sentence, and shows the scaled values', async () => {
    openEditor();
    await scaleDairyPicks();
    await waitFor(() => expect(sentences()).toEqual(['daily picks × 1.10 where category = dairy: 2 rows']));
    expect(Number(cell('daily_picks of sku SKU-1').value)).toBeCloseTo(110);
    expect(Number(cell('daily_picks of sku SKU-3').value)).toBeCloseTo(22);
    expect(screen.queryByRole('textbox', { name: 'daily_picks of sku SKU-2' })).toBeNull();
  });

  it('shows a scale’s values before → after and warns where rounding an integer column moved them', async () => {
    const layout = {
      key: 'example',
      kind: 'master',
      tables: {
        layout: {
          columns: [
            { name: 'location', type: 'string' },
            { name: 'capacity', type: 'integer' },
          ],
          rows: [['L1', 1], ['L2', 1], ['L3', 2], ['L4', 1]],
        },
      },
    };
    openEditor({ [`GET ${BASE}/data/example`]: () => ({ body: layout }) });
    await screen.findByTestId('edit-grid', {}, SLOW);
    const change = screen.getByTestId('change-rows');
    fireEvent.change(within(change).getByLabelText('Column to change'), { target: { value: 'capacity' } });
    fireEvent.change(within(change).getByLabelText('Percentage'), { target: { value: '-50' } });
    fireEvent.click(within(change).getByRole('button', { name: 'Apply' }));
    const effect = await screen.findByTestId('scale-effect');
    expect(effect.textContent).toContain('capacity: 1 → 1, 2 → 1 · total 5 → 4');
    expect(within(effect).getByTestId('rounding-warning').textContent).toBe('⚠ 3 rows rounded: 1 × 0.5 = 0.5 → 1 (total 4, not 2.5)');
  });

  it('turns a cell edit into a sentence naming the row by its key, and a deleted row too', async () => {
    openEditor();
    await screen.findByTestId('edit-grid', {}, SLOW);
    const picks = cell('daily_picks of sku SKU-2');
    fireEvent.change(picks, { target: { value: '75' } });
    fireEvent.blur(picks);
    await waitFor(() => expect(sentences()).toEqual(['daily picks set to 75 where sku = SKU-2: 1 row']));
    fireEvent.click(screen.getByRole('button', { name: 'Delete sku SKU-3' }));
    await waitFor(() => expect(sentences()).toEqual(['daily picks set to 75 where sku = SKU-2: 1 row', 'rows deleted where sku = SKU-3: 1 row']));
    expect(screen.getByTestId('shown-count').textContent).toBe('2 of 2 rows shown');
  });

  it('refuses a cell value that is not of its column’s type, and records no edit', async () => {
    openEditor();
    await screen.findByTestId('edit-grid', {}, SLOW);
    const picks = cell('daily_picks of sku SKU-1');
    fireEvent.change(picks, { target: { value: 'lots' } });
    fireEvent.blur(picks);
    expect((await screen.findByText(/daily_picks takes a number/)).textContent).toContain('lots');
    expect(sentences()).toEqual([]);
  });

  it('removes an edit, and the grid shows the value as it was', async () => {
    openEditor();
    await scaleDairyPicks();
    await waitFor(() => expect(sentences()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /^Remove edit 1/ }));
    await waitFor(() => expect(sentences()).toEqual([]));
    expect(cell('daily_picks of sku SKU-1').value).toBe('100');
  });

  it('adds a row through the form, read as the columns’ types', async () => {
    openEditor();
    await screen.findByTestId('edit-grid', {}, SLOW);
    const form = screen.getByTestId('add-row');
    fireEvent.change(within(form).getByLabelText(/^sku/), { target: { value: 'SKU-9' } });
    fireEvent.change(within(form).getByLabelText(/^category/), { target: { value: 'pet' } });
    fireEvent.change(within(form).getByLabelText(/^daily_picks/), { target: { value: '12.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add row' }));
    await waitFor(() => expect(sentences()).toEqual(['1 row added (SKU-9)']));
    expect(screen.getByTestId('shown-count').textContent).toBe('4 of 4 rows shown');
  });

  it('creates and runs the branch with only the changed parameters and the edits, then opens it', async () => {
    const bodies: unknown[] = [];
    const branch = scenario({ id: 's2', tag: 'dairy +10%', status: 'QUEUED' });
    const { server } = openEditor({
      [`POST ${BASE}/scenarios/s1/branch`]: async (request) => {
        bodies.push(await request.json());
        return { status: 201, body: branch };
      },
      [`GET ${BASE}/scenarios/s2`]: () => ({ body: branch }),
      [`GET ${BASE}/scenarios/s2/lineage`]: () => ({
        body: {
          ancestors: [],
          scenario: { id: 's2', tag: 'dairy +10%', status: 'QUEUED', parent_id: 's1', parent_deleted: null, dataset_key: 'x', changes: null },
          descendants: [],
          descendants_truncated: false,
        },
      }),
    });
    await scaleDairyPicks();
    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: 'dairy +10%' } });
    fireEvent.change(screen.getByLabelText(/Max moves|max_moves/), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create and run' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      tag: 'dairy +10%',
      algo_params: { max_moves: 30 },
      data_params: {},
      edits: [{ table: 'sku_data', update: { where: { category: 'dairy' }, scale: { daily_picks: 1.1 } } }],
      run: true,
    });
    await waitFor(() => expect(server.requests.some((r) => r.url.endsWith('/scenarios/s2/lineage'))).toBe(true), SLOW);
  });

  it('shows each of the server’s refusals at the edit it names, and others at their field', async () => {
    openEditor({
      [`POST ${BASE}/scenarios/s1/branch`]: () => ({
        status: 422,
        body: {
          detail: '2 edits are wrong',
          code: 'EDIT_INVALID',
          errors: [
            { path: 'edits[1].set.daily_picks', message: 'must be at least 0' },
            { path: 'tag', message: 'a scenario base what-if exists' },
          ],
        },
      }),
    });
    await scaleDairyPicks();
    const picks = cell('daily_picks of sku SKU-1');
    fireEvent.change(picks, { target: { value: '-5' } });
    fireEvent.blur(picks);
    await waitFor(() => expect(sentences()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const edits = await screen.findAllByTestId('edit');
    await waitFor(() => expect(edits[1]!.dataset.invalid).toBe('true'));
    expect(edits[1]!.textContent).toContain('set.daily_picks must be at least 0');
    expect(edits[0]!.dataset.invalid).toBeUndefined();
    expect(document.getElementById('branch-tag-error')?.textContent).toBe('a scenario base what-if exists');
  });
});

describe('what-if helpers', () => {
  it('writes each kind of edit as a sentence', () => {
    expect(editSentence({ table: 't', update: { where: { zone: 'A' }, scale: { daily_picks: 1.1 } } }, 37)).toBe('daily picks × 1.10 where zone = A: 37 rows');
    expect(editSentence({ table: 't', update: { where: {}, set: { capacity: 3 } } }, 240)).toBe('capacity set to 3 in every row: 240 rows');
    expect(editSentence({ table: 't', update: { where: { zone: ['A', 'B'], x: { gte: 1, lte: 5 } }, scale: { y: 0.95 } } })).toBe(
      'y × 0.95 where zone is one of A, B and x between 1 and 5',
    );
    expect(editSentence({ table: 't', delete: { where: { level: { gte: 4 } } } }, 0)).toBe('rows deleted where level ≥ 4: 0 rows');
    expect(editSentence({ table: 't', insert: [{ sku: 'A' }, { sku: 'B' }] })).toBe('2 rows added (A, B)');
  });

  it('turns a percentage into a factor without binary noise', () => {
    expect(factorOf(10)).toBe(1.1);
    expect(factorOf(-5)).toBe(0.95);
    expect(factorOf(12.5)).toBe(1.125);
  });

  it('applies edits in order and counts the rows each touched, leaving untouched tables shared', () => {
    const other = { columns: [{ name: 'a', type: 'integer' }], rows: [[1]] };
    const base = { t: { columns: [{ name: 'k', type: 'string' }, { name: 'n', type: 'integer' }], rows: [['a', 1], ['b', 3]] }, other };
    const { tables, rows } = applyEdits(base, [
      { table: 't', update: { where: {}, scale: { n: 1.5 } } },
      { table: 't', delete: { where: { k: 'a' } } },
      { table: 't', update: { where: { k: 'zzz' }, set: { n: 0 } } },
    ]);
    expect(tables.t!.rows).toEqual([['b', 5]]);
    expect(rows).toEqual([2, 1, 0]);
    expect(tables.other).toBe(other);
  });

  it('sorts the server’s errors by edit, whatever form the path takes', () => {
    const { byEdit, others } = splitEditErrors([
      { path: 'edits[3].set.demand', message: 'm1' },
      { path: '/edits/0/insert/1/sku', message: 'm2' },
      { path: 'algo_params.x', message: 'm3' },
    ]);
    expect(byEdit.get(3)).toEqual([{ path: 'set.demand', message: 'm1' }]);
    expect(byEdit.get(0)).toEqual([{ path: 'insert.1.sku', message: 'm2' }]);
    expect(others).toEqual([{ path: 'algo_params.x', message: 'm3' }]);
  });
});
