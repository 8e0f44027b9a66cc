import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import { CreateScenarioForm } from '../src/pages/CreateScenarioForm.tsx';
import { answeringFetch } from './answering-fetch.ts';
import { scenario } from './fixtures.ts';

const BASE = '/api/v1/sessions/main';

/** The form against a server whose run route answers only when the test lets it. */
function renderForm() {
  let releaseRun: () => void = () => undefined;
  const runAnswered = new Promise<void>((resolve) => (releaseRun = resolve));
  const server = answeringFetch({
    [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'sample', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null } }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { items: [{ name: 'Greedy Slotting', description: 'greedy' }] } }),
    [`GET ${BASE}/algorithms/Greedy Slotting/parameters`]: () => ({ body: { parameters: [] } }),
    [`GET ${BASE}/data/sample/parameters`]: () => ({ body: { parameters: [] } }),
    [`POST ${BASE}/scenarios`]: async (request) => {
      const body = (await request.json()) as { tag: string };
      return { status: 201, body: scenario({ id: body.tag, tag: body.tag }) };
    },
    [`POST ${BASE}/scenarios/first/run`]: async () => {
      await runAnswered;
      return { body: scenario({ id: 'first', tag: 'first', status: 'QUEUED' }) };
    },
  });
  const api = createApi(new ApiConfig('http://localhost/api/v1', null), server.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ApiProvider api={api}>
      <QueryClientProvider client={client}>
        <CreateScenarioForm sid="main" />
      </QueryClientProvider>
    </ApiProvider>,
  );
  return { server, releaseRun };
}

describe('the create-scenario form', () => {
  it('keeps a tag typed while the previous scenario was still being created and run', async () => {
    const { server, releaseRun } = renderForm();
    const tag = screen.getByLabelText<HTMLInputElement>('Tag');
    const create = screen.getByRole<HTMLButtonElement>('button', { name: 'Create scenario' });
    await expect.poll(() => create.disabled).toBe(false);

    fireEvent.change(tag, { target: { value: 'first' } });
    fireEvent.click(create);
    // The scenario exists (its card may already show through events) but its run is still on its way.
    await expect.poll(() => server.requests.some((r) => r.url.endsWith('/scenarios/first/run'))).toBe(true);
    fireEvent.change(tag, { target: { value: 'second' } });
    releaseRun();

    await screen.findByText('Scenario “first” created.');
    expect(tag.value).toBe('second');
  });

  it('clears the tag it created when nothing was typed meanwhile', async () => {
    const { releaseRun } = renderForm();
    releaseRun();
    const tag = screen.getByLabelText<HTMLInputElement>('Tag');
    const create = screen.getByRole<HTMLButtonElement>('button', { name: 'Create scenario' });
    await expect.poll(() => create.disabled).toBe(false);
    fireEvent.change(tag, { target: { value: 'first' } });
    fireEvent.click(create);
    await screen.findByText('Scenario “first” created.');
    expect(tag.value).toBe('');
  });
});
