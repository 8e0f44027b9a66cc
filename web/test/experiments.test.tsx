import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axisLength, countProblem, newAxis, scenarioCount } from '../src/experiments/axes.ts';
import { formErrorsOf } from '../src/experiments/field-errors.ts';
import { ExperimentForm } from '../src/experiments/ExperimentForm.tsx';
import { ResultsTable } from '../src/experiments/ResultsTable.tsx';
import { ApiError } from '../src/api/http.ts';
import { keys } from '../src/api/keys.ts';
import { ScenarioBatchBar } from '../src/pages/ScenarioBatchBar.tsx';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/main';

describe('the experiment count', () => {
  it('multiplies the axes lengths by the repeats, a list by its items and a range by its steps', () => {
    expect(axisLength({ ...newAxis('algo_params.a'), mode: 'list', list: '1, 2,, 3 ' })).toBe(3);
    expect(axisLength({ ...newAxis('algo_params.a'), mode: 'range', steps: '5' })).toBe(5);
    expect(axisLength({ ...newAxis('algo_params.a'), mode: 'range', steps: '1' })).toBe(0);
    expect(axisLength({ ...newAxis('algo_params.a'), mode: 'range', steps: '2.5' })).toBe(0);
    expect(scenarioCount([3, 5, 2], 4)).toBe(120);
    expect(scenarioCount([3, 0], 4)).toBe(0);
    expect(scenarioCount([3], 0)).toBe(0);
    expect(scenarioCount([], 1)).toBe(1);
  });

  it('explains an empty or over-limit count and lets a count within the limit through', () => {
    expect(countProblem(0)).toMatch(/at least one value/);
    expect(countProblem(10_000)).toBeNull();
    expect(countProblem(10_001)).toMatch(/10,001 scenarios is over the server's limit of 10,000 \(setting max_experiment_size; the server refuses it with 413\)/);
    expect(countProblem(50, 40)).toMatch(/limit of 40/);
  });

  it('puts the server errors at their fields: axis values, name, datasets; combinations elsewhere; 409 at the name; 413 at the count', () => {
    const errors = formErrorsOf(
      new ApiError(400, 'invalid', 'PARAMETER_INVALID', [
        { path: 'axes.algo_params.rate[1]', message: 'above the maximum 1' },
        { path: 'axes.dataset_key[0]', message: 'no such dataset' },
        { path: 'combinations[7]', message: 'depot outside the floor' },
      ]),
    );
    expect(errors.fields).toEqual({ 'algo_params.rate': ['[1]: above the maximum 1'], datasets: ['[0]: no such dataset'] });
    expect(errors.other).toEqual([{ path: 'combinations[7]', message: 'depot outside the floor' }]);
    expect(formErrorsOf(new ApiError(409, 'the name is taken', 'EXPERIMENT_NAME_TAKEN', [])).fields).toEqual({ name: ['the name is taken'] });
    expect(formErrorsOf(new ApiError(413, 'too many', 'EXPERIMENT_TOO_LARGE', [])).fields).toEqual({ count: ['too many'] });
  });
});

function renderForm(answerCreate: () => { status: number; body: unknown }) {
  return renderWithApi(<ExperimentForm sid="main" onCreated={() => undefined} />, {
    [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'sample', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null } }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { items: [{ name: 'Greedy', description: 'greedy' }] } }),
    [`GET ${BASE}/algorithms/Greedy/parameters`]: () => ({
      body: { name: 'Greedy', parameters: [{ name: 'rate', type: 'float', required: false, label: 'Rate', value: null, default: 0.5, min: 0, max: 1 }] },
    }),
    [`POST ${BASE}/experiments`]: answerCreate,
  });
}

describe('the experiment form', () => {
  it('counts the scenarios as the values are typed, and refuses an over-limit count with its reason', async () => {
    renderForm(() => ({ status: 500, body: {} }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Vary Rate/ }));
    fireEvent.change(screen.getByLabelText('Steps'), { target: { value: '4' } });
    fireEvent.change(screen.getByLabelText('Repeats'), { target: { value: '3' } });
    expect(screen.getByTestId('scenario-count').textContent).toMatch(/^12 scenarios \(4 × 1 × 3 repeats\)/);
    fireEvent.change(screen.getByLabelText('Steps'), { target: { value: '5000' } });
    expect(screen.getByTestId('scenario-count').textContent).toMatch(/^15,000 scenarios/);
    expect(screen.getByTestId('count-problem').textContent).toMatch(/max_experiment_size/);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'sweep' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create experiment' }).disabled).toBe(true);
  });

  it('shows the server errors at the axis and lists combination errors', async () => {
    const { server } = renderForm(() => ({
      status: 400,
      body: {
        detail: 'invalid values',
        code: 'PARAMETER_INVALID',
        errors: [
          { path: 'axes.algo_params.rate[1]', message: 'above the maximum 1' },
          { path: 'combinations[1]', message: 'not a valid combination' },
        ],
      },
    }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Vary Rate/ }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '0.5' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'sweep' } });
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create experiment' }).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Create experiment' }));
    const axis = screen.getAllByTestId('axis')[0]!;
    expect((await within(axis).findByRole('alert')).textContent).toBe('[1]: above the maximum 1');
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('list', { name: 'Other problems' }).textContent).toMatch(/combinations\[1\]: not a valid combination/);
    const sent = server.requests.find((r) => r.method === 'POST');
    expect(await sent?.clone().json()).toMatchObject({ name: 'sweep', algo_name: 'Greedy', dataset_key: 'sample', axes: { 'algo_params.rate': { from: 0.5, to: 2, steps: 2 } }, repeats: 1 });
  });
});

describe("the experiment page's results table", () => {
  const rows = ['s1', 's2', 's3'].map((id, n) => ({ id, tag: `sweep ${n}`, status: 'COMPLETE', axes: { max_moves: n * 10 }, kpis: { travel: 100 - n } }));
  const table = (planScenarioId: string | null) =>
    renderWithApi(<ResultsTable sid="main" rows={rows} axes={['max_moves']} kpis={['travel']} labelOf={(column) => column} />, {
      [`GET ${BASE}/plan`]: () => ({ body: { current: planScenarioId === null ? null : { id: 'p1', scenario_id: planScenarioId, tag: 'sweep 1' }, history: [] } }),
    });
  const badged = () => screen.getAllByTestId('result-row').filter((row) => within(row).queryByTestId('plan-badge') !== null);

  it("badges the row of the session's published plan, beside its tag, and no other", async () => {
    const { server } = table('s2');
    await waitFor(() => expect(badged()).toHaveLength(1));
    expect(badged()[0]!.textContent).toContain('sweep 1');
    expect(within(badged()[0]!).getByTestId('plan-badge').textContent).toBe('Plan');
    // One read of the plan for the whole table, not one per row.
    expect(server.requests.filter((r) => r.url.endsWith('/plan'))).toHaveLength(1);
  });

  it('badges no row when the plan is not one of the experiment\'s scenarios, or none is published', async () => {
    for (const planScenarioId of ['elsewhere', null]) {
      const { client, unmount } = table(planScenarioId);
      // The plan's answer has arrived (and rendered) before the rows are looked at.
      await waitFor(() => expect(client.getQueryState(keys.plan('main'))?.status).toBe('success'));
      expect(screen.getAllByTestId('result-row')).toHaveLength(3);
      expect(badged()).toHaveLength(0);
      unmount();
    }
  });
});

describe('batch actions on the scenarios page', () => {
  it('confirms with the count of the ticked scenarios, then sends their ids and tells what changed', async () => {
    const { server } = renderWithApi(<ScenarioBatchBar sid="main" selected={new Set(['a', 'b'])} matching={7} status="" query="" onClear={() => undefined} />, {
      [`POST ${BASE}/scenarios:reset`]: () => ({ body: { changed: 1, skipped: 1, changed_ids: ['a'], skipped_ids: ['b'] } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset 2' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(within(dialog).getByRole('heading', { hidden: true }).textContent).toBe('Reset 2 scenarios?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset 2 scenarios', hidden: true }));
    expect(await screen.findByText(/Reset: 1 changed, 1 skipped/)).toBeTruthy();
    expect(await server.requests.find((r) => r.method === 'POST')?.clone().json()).toEqual({ ids: ['a', 'b'] });
  });

  it('acts on all matching the filter once that is chosen, stating that count', async () => {
    const { server } = renderWithApi(<ScenarioBatchBar sid="main" selected={new Set()} matching={7} status="FAILED" query="sweep" onClear={() => undefined} />, {
      [`POST ${BASE}/scenarios:delete`]: () => ({ body: { changed: 7, skipped: 0, changed_ids: [], skipped_ids: [] } }),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'all 7 matching the filter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete 7' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog.textContent).toMatch(/Delete 7 scenarios \(all matching the filter\)\? Deleting cannot be undone/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 7 scenarios', hidden: true }));
    expect(await screen.findByText(/Delete: 7 changed, 0 skipped/)).toBeTruthy();
    expect(await server.requests.find((r) => r.method === 'POST')?.clone().json()).toEqual({ filter: { status: 'FAILED', q: 'sweep' } });
  });
});
