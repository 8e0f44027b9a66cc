import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GateForm } from '../src/gates/GateForm.tsx';
import { app, BASE } from './render-app.tsx';
import { renderWithApi } from './render-with-api.tsx';

const SIDE = { algo_name: 'Simulated Annealing Slotting', algo_params: { iterations: 200 }, data_params: {} };
const GATE = {
  id: 'g1',
  name: 'sa long vs short',
  baseline: SIDE,
  candidate: { ...SIDE, algo_params: { iterations: 20000 } },
  inputs: { datasets: ['example'] },
  dataset_keys: ['example'],
  repeats: 4,
  alpha: 0.05,
  min_effect: 0,
  kpi_names: ['Reslot Moves'],
  rule: { must_pass: ['Reslot Moves'], must_not_fail: ['Reslot Moves'] },
  size: 8,
  created_at: '2026-12-01T08:00:00.000Z',
};
const COUNTS = { CREATED: 0, QUEUED: 0, PROCESSING: 0, COMPLETE: 8, FAILED: 0 };
const LINE = {
  kpi: 'Reslot Moves',
  better_when: 'LOWER',
  min_effect: 0,
  verdict: 'pass',
  mean_difference: -35.5,
  median_difference: -36,
  ci: [-41.2, -29.8],
  p_value: 0.125,
  n: 4,
  test: 'wilcoxon',
  differences: [-30, -36, -36, -40],
  pairs: [0, 1, 2, 3],
};

describe('the Gates pages', () => {
  it('draws a complete gate: its verdict, the table with each interval drawn, and a paired-difference chart per KPI', async () => {
    app({ [`GET ${BASE}/gates/g1`]: () => ({ body: { ...GATE, status: 'complete', counts: COUNTS, progress: 1, verdict: 'pass', kpis: [LINE] } }) }, '/s/main/gates/g1');
    expect((await screen.findByTestId('gate-verdict')).textContent).toContain('Verdict: pass');
    const row = within(screen.getByTestId('gate-table')).getByText('Reslot Moves').closest('tr')!;
    expect((row).textContent).toContain('pass');
    expect((row).textContent).toContain('-35.50');
    expect(within(row).getByRole('img', { name: /interval -41.20 to -29.80/ })).toBeTruthy();
    const strip = screen.getByRole('img', { name: 'Reslot Moves: 4 paired differences' });
    expect(strip.querySelectorAll('circle')).toHaveLength(4);
  });

  it('shows the progress of a running gate and no verdict yet', async () => {
    const running = { ...GATE, status: 'running', counts: { ...COUNTS, COMPLETE: 3, QUEUED: 4, PROCESSING: 1 }, progress: 0.375, verdict: null, kpis: null };
    app({ [`GET ${BASE}/gates/g1`]: () => ({ body: running }) }, '/s/main/gates/g1');
    expect((await screen.findByTestId('gate-progress')).textContent).toContain('3 of 8 runs done');
    expect(screen.getByRole('progressbar', { name: 'gate progress' }).getAttribute('aria-valuenow')).toBe('38');
    expect(screen.queryByTestId('gate-verdict')).toBeNull();
  });

  it('counts the runs the form will make and posts both sides with their parameters', async () => {
    let posted: unknown;
    const { server } = renderWithApi(<GateForm sid="main" onCreated={() => undefined} />, {
      [`GET ${BASE}/algorithms`]: () => ({ body: { algorithms: [], items: [{ name: 'Instant', description: null, tags: [], seed_parameter: null }] } }),
      [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'example', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null } }),
      [`POST ${BASE}/gates`]: async (request) => {
        posted = await request.json();
        return { status: 201, body: { ...GATE, id: 'g2' } };
      },
    });
    fireEvent.change(screen.getByLabelText('gate name'), { target: { value: 'a/a' } });
    await screen.findAllByRole('option', { name: 'Instant' });
    fireEvent.change(screen.getByLabelText('Baseline algorithm'), { target: { value: 'Instant' } });
    fireEvent.change(screen.getByLabelText('Candidate algorithm'), { target: { value: 'Instant' } });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'example' }));
    fireEvent.change(screen.getByLabelText('repeats'), { target: { value: '6' } });
    expect((screen.getByTestId('gate-run-count')).textContent).toContain('This gate will make 12 runs (6 pairs).');
    fireEvent.click(screen.getByRole('button', { name: 'Create and run' }));
    await waitFor(() => expect(posted).toBeDefined());
    expect(posted).toMatchObject({ name: 'a/a', baseline: { algo_name: 'Instant' }, candidate: { algo_name: 'Instant' }, inputs: { datasets: ['example'] }, repeats: 6, alpha: 0.05 });
    expect(server.requests.some((r) => r.method === 'POST')).toBe(true);
  });
});
