import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import { keys } from '../src/api/keys.ts';
import { useLiveUpdates } from '../src/api/use-live-updates.ts';
import type { Scenario } from '../src/api/types.ts';
import { answeringFetch, type Route } from './answering-fetch.ts';
import { scenario } from './fixtures.ts';

const EVENTS = 'GET /api/v1/sessions/main/events';

function Mode() {
  return <p data-testid="mode">{useLiveUpdates('main')}</p>;
}

function renderLive(routes: Record<string, Route>, token: string | null = null, config = new ApiConfig('http://localhost/api/v1', null)) {
  if (token) config.setToken(token);
  const server = answeringFetch(routes);
  const client = new QueryClient();
  client.setQueryData<Scenario[]>(keys.scenarios('main'), [scenario({ id: 's1', tag: 'a', status: 'QUEUED' })]);
  render(
    <ApiProvider api={createApi(config, server.fetch)}>
      <QueryClientProvider client={client}>
        <Mode />
      </QueryClientProvider>
    </ApiProvider>,
  );
  return { client, requests: server.requests };
}

/** An event stream that sends `frames` and stays open until the request is aborted. */
function stream(request: Request, frames: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(frames));
      request.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('live updates through the typed client', () => {
  it('says live once the stream opens, sends the token in a header, and writes events into the list', async () => {
    const report = { objective: 42, best_so_far: 40, message: 'halfway', at: '2026-11-23T08:00:00Z' };
    const event = { id: 5, type: 'scenario.progress', session_id: 'x', at: '', scenario_id: 's1', status: 'PROCESSING', progress: 0.5, report };
    const { client, requests } = renderLive({ [EVENTS]: (request) => stream(request, `id: 5\nevent: scenario.progress\ndata: ${JSON.stringify(event)}\n\n`) }, 'tok');
    await waitFor(() => expect(screen.getByTestId('mode').textContent).toBe('live'));
    await waitFor(() => expect(client.getQueryData<Scenario[]>(keys.scenarios('main'))![0]!.report).toEqual(report));
    expect(client.getQueryData<Scenario[]>(keys.scenarios('main'))![0]!.status).toBe('PROCESSING');
    const opened = requests.find((r) => r.url.includes('/events'))!;
    expect([new URL(opened.url).search, opened.headers.get('authorization')]).toEqual(['', 'Bearer tok']);
  });

  it('polls on a server without the event stream', async () => {
    renderLive({});
    await waitFor(() => expect(screen.getByTestId('mode').textContent).toBe('polling'));
  });

  it('asks for a token when the stream answers 401', async () => {
    let asked = 0;
    const config = new ApiConfig('http://localhost/api/v1', null);
    config.onUnauthorized(() => asked++);
    renderLive({ [EVENTS]: () => ({ status: 401, body: { detail: 'a token is required', code: 'UNAUTHORIZED' } }) }, null, config);
    await waitFor(() => expect(screen.getByTestId('mode').textContent).toBe('polling'));
    expect(asked).toBe(1);
  });
});
