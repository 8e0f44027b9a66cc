import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../src/api/decisions.ts';
import { phraseOf, phraseText, type ActivityNames } from '../src/decisions/activity-phrases.ts';
import { KNOWN_ACTIONS } from '../src/decisions/audit-actions.ts';
import { app, BASE } from './render-app.tsx';

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
  kpi_names: ['Travel Distance'],
  rule: { must_pass: ['Travel Distance'], must_not_fail: ['Travel Distance'] },
  size: 8,
  created_at: '2026-12-01T08:00:00.000Z',
};
const COUNTS = { CREATED: 0, QUEUED: 0, PROCESSING: 0, COMPLETE: 8, FAILED: 0 };
const LINE = {
  kpi: 'Travel Distance',
  better_when: 'LOWER',
  min_effect: 0,
  verdict: 'pass',
  mean_difference: -812.5,
  median_difference: -800,
  ci: [-1010.25, -614.75],
  p_value: 0.125,
  n: 4,
  test: 'wilcoxon',
  differences: [-700, -800, -800, -950],
  pairs: [0, 1, 2, 3],
};
const COMPLETE = { ...GATE, status: 'complete', counts: COUNTS, progress: 1, verdict: 'pass', kpis: [LINE] };
const REPORT = {
  kind: 'gate',
  id: 'r9',
  title: 'Longer annealing',
  note: 'before it replaces the planners’ version',
  created_at: '2026-12-01T09:30:00.000Z',
  created_by: { id: 'tok-1', name: 'dora' },
  gate: { id: 'g1', name: GATE.name, created_at: GATE.created_at, baseline: GATE.baseline, candidate: GATE.candidate, inputs: GATE.inputs, dataset_keys: GATE.dataset_keys, repeats: 4, alpha: 0.05, min_effect: 0, rule: GATE.rule, size: 8, counts: COUNTS },
  verdict: 'pass',
  kpis: [{ ...LINE, unit: 'm' }],
};

describe('a gate saved as a report', () => {
  it('saves a complete gate from its page with a title and a note, and opens the report', async () => {
    const server = app(
      {
        [`GET ${BASE}/gates/g1`]: () => ({ body: COMPLETE }),
        [`POST ${BASE}/gates/g1/reports`]: () => ({ status: 201, body: REPORT }),
        [`GET ${BASE}/reports/r9`]: () => ({ body: REPORT }),
      },
      '/s/main/gates/g1',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save as report…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save gate as report' });
    const title = within(dialog).getByLabelText<HTMLInputElement>('Title');
    expect(title.value).toBe('Gate sa long vs short');
    fireEvent.change(title, { target: { value: 'Longer annealing' } });
    fireEvent.change(within(dialog).getByLabelText(/Note/), { target: { value: 'before it replaces the planners’ version' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save report' }));
    await waitFor(() => expect(server.router.state.location.pathname).toBe('/s/main/reports/r9'));
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(new URL(post.url).pathname).toBe(`${BASE}/gates/g1/reports`);
    expect(await post.json()).toEqual({ title: 'Longer annealing', note: 'before it replaces the planners’ version' });
    expect((await screen.findByTestId('report-title')).textContent).toBe('Longer annealing');
  });

  it('offers no save while the gate runs: there is no verdict to freeze yet', async () => {
    const running = { ...COMPLETE, status: 'running', counts: { ...COUNTS, COMPLETE: 3, QUEUED: 5 }, progress: 0.375, verdict: null, kpis: null };
    app({ [`GET ${BASE}/gates/g1`]: () => ({ body: running }) }, '/s/main/gates/g1');
    await screen.findByTestId('gate-progress');
    expect(screen.queryByRole('button', { name: 'Save as report…' })).toBeNull();
  });

  it('shows what the report froze: who and when, the verdict, the table with its interval, the differences, the inputs; and prints', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    app({ [`GET ${BASE}/reports/r9`]: () => ({ body: REPORT }) }, '/s/main/reports/r9');
    const report = await screen.findByTestId('report');
    expect(report.getAttribute('data-kind')).toBe('gate');
    expect(screen.getByTestId('report-meta').textContent).toMatch(/^Saved by dora on .+ · gate sa long vs short, created /);
    expect(report.textContent).toContain('before it replaces the planners’ version');
    expect(screen.getByTestId('gate-verdict').textContent).toBe('Verdict: pass');
    const row = within(screen.getByTestId('gate-table')).getByText('Travel Distance').closest('tr')!;
    expect(row.textContent).toContain('(m)');
    expect(row.textContent).toContain('-812.5');
    expect(row.textContent).toContain('[-1010, -614.8]');
    expect(within(row).getByRole('img', { name: /interval -1010 to -614.8, zero marked/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Travel Distance: 4 paired differences' }).querySelectorAll('circle')).toHaveLength(4);
    const config = screen.getByTestId('gate-configuration').textContent;
    expect(config).toContain('Simulated Annealing Slotting {"iterations":200}');
    expect(config).toContain('Simulated Annealing Slotting {"iterations":20000}');
    expect(config).toContain('the datasets example: example');
    expect(config).toContain('4 pairs per input · 8 runs (8 complete, 0 failed)');
    // The running header of every printed page carries the title.
    expect(report.querySelector('style')!.textContent).toContain('"Longer annealing"');
    fireEvent.click(screen.getByRole('button', { name: 'Print…' }));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });

  it('lists a gate report with the reports, by its kind', async () => {
    const item = { id: 'r9', kind: 'gate', title: 'Longer annealing', note: null, scenario_ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], created_at: REPORT.created_at, created_by: REPORT.created_by };
    app({ [`GET ${BASE}/reports`]: () => ({ body: { items: [item], next_cursor: null } }) }, '/s/main/reports');
    const list = await screen.findByTestId('report-list');
    expect(list.textContent).toContain('gate verdict, 8 runs · saved by dora');
    expect(within(list).getByRole('link', { name: 'Longer annealing' }).getAttribute('href')).toBe('/s/main/reports/r9');
  });
});

describe('Activity says what was done to gates', () => {
  const entry = (seq: number, action: string, status: number, targets: Record<string, string>): AuditEntry =>
    ({ seq, at: '2026-12-01T09:30:00.000Z', who: { token_id: null, name: 'local' }, address: '127.0.0.1', action, session_id: 'sid-1', targets: { session: 'sid-1', ...targets }, status, hash: 'h', prev_hash: 'p' });
  const names: ActivityNames = { session: 'main', reports: new Map([['r9', 'Longer annealing']]), gates: new Map([['g1', 'sa long vs short']]), plans: [] };
  const say = (e: AuditEntry) => phraseText(phraseOf(e, names));

  it('phrases creating, deleting and saving a gate, naming it, or saying it is gone', () => {
    expect(say(entry(1, 'gate.create', 201, { gate: 'g1' }))).toBe('Created the gate sa long vs short, queueing its paired runs');
    expect(say(entry(2, 'gate.create', 400, {}))).toBe('Tried to create a gate');
    expect(say(entry(3, 'report.create', 201, { gate: 'g1', report: 'r9' }))).toBe('Saved the report Longer annealing of the gate sa long vs short');
    expect(say(entry(4, 'report.create', 409, { gate: 'g1' }))).toBe('Tried to save the gate sa long vs short as a report');
    expect(say(entry(5, 'gate.delete', 200, { gate: '7d1c2a9e-0000-4000-8000-00000000abcd' }))).toBe('Deleted the gate a deleted gate (7d1c2a9e) and its runs');
    // A comparison's report reads as before.
    expect(say(entry(6, 'report.create', 201, { report: 'r9' }))).toBe('Saved the report Longer annealing');
    expect(KNOWN_ACTIONS).toEqual(expect.arrayContaining(['gate.create', 'gate.delete']));
  });

  it('links a gate still in the session to its page', async () => {
    app(
      {
        [`GET ${BASE}/experiments`]: () => ({ body: { items: [], next_cursor: null } }),
        [`GET ${BASE}/reports`]: () => ({ body: { items: [], next_cursor: null } }),
        [`GET ${BASE}/gates`]: () => ({ body: { items: [GATE], next_cursor: null } }),
        [`GET ${BASE}/audit`]: () => ({ body: { entries: [entry(1, 'gate.create', 201, { gate: 'g1' })], next_cursor: null } }),
      },
      '/s/main/activity',
    );
    const [row] = await screen.findAllByTestId('activity-entry');
    await waitFor(() => expect(row!.textContent).toContain('Created the gate sa long vs short, queueing its paired runs'));
    expect(within(row!).getByRole('link', { name: 'sa long vs short' }).getAttribute('href')).toBe('/s/main/gates/g1');
  });
});
