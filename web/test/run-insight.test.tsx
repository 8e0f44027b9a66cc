import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import { keys } from '../src/api/keys.ts';
import { applyEvent } from '../src/api/live.ts';
import type { RunLogs } from '../src/api/logs.ts';
import type { Scenario } from '../src/api/types.ts';
import { ScenarioCard } from '../src/pages/ScenarioCard.tsx';
import { answeringFetch, type Route } from './answering-fetch.ts';
import { scenario } from './fixtures.ts';

const LOGS = 'GET /api/v1/sessions/main/scenarios/f/logs';

function renderCard(card: Scenario, routes: Record<string, Route> = {}, token: string | null = null) {
  const config = new ApiConfig('http://localhost/api/v1', null);
  if (token) config.setToken(token);
  const server = answeringFetch(routes);
  const api = createApi(config, server.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <ApiProvider api={api}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ApiProvider>
  );
  render(wrap(<ScenarioCard sid="main" scenario={card} />));
  return server;
}

const failed = scenario({ id: 'f', tag: 'bad', status: 'FAILED', progress: 0.3, error: { message: 'boom', code: 'ALGORITHM_ERROR' } });

describe('the run report on a scenario card', () => {
  it('shows objective, best so far and message beside the progress of a running scenario', () => {
    const report = { objective: 1234.5, best_so_far: 1200, message: 'iteration 40 of 100', at: '2026-11-23T08:00:01.000Z' };
    renderCard(scenario({ id: 'r', tag: 'run', status: 'PROCESSING', progress: 0.4, report }));
    expect(screen.getByRole('progressbar', { name: 'Progress of run' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByTestId('objective').textContent).toBe('1,234.5');
    expect(screen.getByTestId('best-so-far').textContent).toBe('1,200');
    expect(screen.getByTestId('report-message').textContent).toBe('iteration 40 of 100');
  });

  it('shows only what was reported, and nothing for a run that never reported', () => {
    renderCard(scenario({ id: 'm', tag: 'msg', status: 'PROCESSING', report: { objective: null, best_so_far: null, message: 'loading data', at: '' } }));
    expect(screen.getByTestId('run-report').textContent).toBe('loading data');
    expect(screen.queryByTestId('objective')).toBeNull();
    renderCard(scenario({ id: 'q', tag: 'quiet', status: 'PROCESSING', progress: 0.1 }));
    expect(screen.getAllByTestId('run-report')).toHaveLength(1);
  });

  it('takes the report of a progress event into the cached list, ignores one not shaped like a report, and drops it on reset', () => {
    const client = new QueryClient();
    client.setQueryData<Scenario[]>(keys.scenarios('main'), [scenario({ id: 's1', tag: 'a', status: 'PROCESSING' })]);
    const event = { id: 9, type: 'scenario.progress', session_id: 'x', at: '', scenario_id: 's1', status: 'PROCESSING', progress: 0.5 };
    applyEvent(client, 'main', { ...event, report: { objective: 7, best_so_far: 6.5, message: null, at: '2026-11-23T08:00:00Z' } });
    expect(client.getQueryData<Scenario[]>(keys.scenarios('main'))![0]!.report).toEqual({ objective: 7, best_so_far: 6.5, message: null, at: '2026-11-23T08:00:00Z' });
    applyEvent(client, 'main', { ...event, id: 10, progress: 0.6, report: { objective: 'seven', at: 'x' } });
    const [s1] = client.getQueryData<Scenario[]>(keys.scenarios('main'))!;
    expect([s1!.progress, s1!.report?.objective]).toEqual([0.6, 7]);
    applyEvent(client, 'main', { id: 11, type: 'scenario.reset', session_id: 'x', at: '', scenario_id: 's1', status: 'CREATED' });
    const [reset] = client.getQueryData<Scenario[]>(keys.scenarios('main'))!;
    expect([reset!.status, reset!.progress, reset!.report]).toEqual(['CREATED', 0, undefined]);
  });
});

describe('the logs of a run', () => {
  it('shows the lines and the thrown error with its class, message and stack, asking with the token', async () => {
    const logs: RunLogs = {
      lines: [
        { at: '2026-11-23T08:00:00.000Z', level: 'info', message: 'loaded 120 SKUs' },
        { at: '2026-11-23T08:00:01.000Z', level: 'warn', message: 'slot A3 is full', fields: { slot: 'A3' } },
      ],
      truncated: true,
      error: { class: 'RangeError', message: 'no free slot', stack: ['at place (domain/greedy.ts:12:5)', 'at run (domain/greedy.ts:40:3)'] },
    };
    const server = renderCard(failed, { [LOGS]: () => ({ body: logs }) }, 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Logs of bad' }));
    await screen.findByTestId('logs');
    expect(screen.getByTestId('log-lines').textContent).toBe(
      '2026-11-23T08:00:00.000Z INFO loaded 120 SKUs\n2026-11-23T08:00:01.000Z WARN slot A3 is full {"slot":"A3"}',
    );
    const error = screen.getByTestId('run-error');
    expect(error.querySelector('strong')!.textContent).toBe('RangeError');
    expect(error.textContent).toContain('no free slot');
    expect(screen.getByLabelText('Stack').textContent).toBe('at place (domain/greedy.ts:12:5)\nat run (domain/greedy.ts:40:3)');
    expect(screen.getByText(/Older lines were dropped/)).toBeTruthy();
    expect(server.requests.map((r) => [r.url, r.headers.get('authorization')])).toEqual([['http://localhost/api/v1/sessions/main/scenarios/f/logs', 'Bearer secret']]);
  });

  it('says so for a run without lines and without an error', async () => {
    renderCard(failed, { [LOGS]: () => ({ body: { lines: [], truncated: false } }) });
    fireEvent.click(screen.getByRole('button', { name: 'Logs of bad' }));
    await screen.findByText('No log lines.');
    expect(screen.queryByTestId('run-error')).toBeNull();
  });

  it('goes away when the server has no logs route', async () => {
    const server = renderCard(failed);
    fireEvent.click(screen.getByRole('button', { name: 'Logs of bad' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Logs of bad' })).toBeNull());
    expect(screen.queryByTestId('logs')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it('shows the error of a 404 for the scenario itself and keeps the panel', async () => {
    renderCard(failed, { [LOGS]: () => ({ status: 404, body: { detail: "scenario 'f' not found", code: 'NOT_FOUND' } }) });
    fireEvent.click(screen.getByRole('button', { name: 'Logs of bad' }));
    expect((await screen.findByRole('alert')).textContent).toBe("scenario 'f' not found");
    expect(screen.getByRole('button', { name: 'Logs of bad' })).toBeTruthy();
  });

  it('offers no logs for a scenario never run', () => {
    renderCard(scenario({ id: 'n', tag: 'new' }));
    expect(screen.queryByRole('button', { name: 'Logs of new' })).toBeNull();
  });
});
