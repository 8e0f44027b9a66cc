import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiConfig, ApiError } from '../src/api/http.ts';
import { answeringFetch } from './answering-fetch.ts';

const BASE = 'http://localhost/api/v1';

function apiWith(routes: Parameters<typeof answeringFetch>[0]) {
  const config = new ApiConfig(BASE, null);
  const server = answeringFetch(routes);
  return { api: createApi(config, server.fetch), config, requests: server.requests };
}

describe('the dashboard API over the typed client', () => {
  it('sends the token of the moment with each call', async () => {
    const { api, config, requests } = apiWith({ 'GET /api/v1/sessions': () => ({ body: { sessions: [], default: 'x' } }) });
    await api.listSessions();
    config.setToken('t-1');
    await api.listSessions();
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual([null, 'Bearer t-1']);
  });

  it('turns error answers into ApiErrors with detail, code and field errors, and a 401 into a token request', async () => {
    const { api, config } = apiWith({
      'POST /api/v1/sessions/main/scenarios': () => ({
        status: 422,
        body: { detail: 'body/tag: must be string', code: 'INVALID_REQUEST', errors: [{ path: '/tag', message: 'must be string' }] },
      }),
      'GET /api/v1/sessions': () => ({ status: 401, body: { detail: 'a token is required', code: 'UNAUTHORIZED' } }),
    });
    const invalid = await api.createScenario('main', { tag: 't', dataset_key: 'd', algo_name: 'a' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect([(invalid as ApiError).status, (invalid as ApiError).code, (invalid as ApiError).errors]).toEqual([422, 'INVALID_REQUEST', [{ path: '/tag', message: 'must be string' }]]);
    let asked = 0;
    config.onUnauthorized(() => asked++);
    await expect(api.listSessions()).rejects.toMatchObject({ status: 401, detail: 'a token is required' });
    expect(asked).toBe(1);
  });

  it('encodes path segments and sends JSON bodies the schema types', async () => {
    const { api, requests } = apiWith({
      'POST /api/v1/sessions/my%20session/data/june%2F1/derive': () => ({ status: 201, body: { keys: ['june/1', 'copy'] } }),
    });
    expect(await api.deriveDataset('my session', 'june/1', 'copy')).toEqual({ keys: ['june/1', 'copy'] });
    expect(await requests[0]!.json()).toEqual({ new_key: 'copy' });
  });

  it('uploads the files as multipart with the dataset name', async () => {
    let form: FormData | undefined;
    const { api } = apiWith({
      'POST /api/v1/sessions/main/etl': async (request) => {
        form = await request.formData();
        return { body: { dataset_name: 'june', success: true, keys: ['june'], messages: [] } };
      },
    });
    const file = new File(['sku,daily_picks\nA,1\n'], 'sku_data.csv', { type: 'text/csv' });
    expect((await api.uploadEtl('main', 'june', [file])).success).toBe(true);
    expect(form!.get('dataset_name')).toBe('june');
    const sent = form!.getAll('files') as File[];
    expect(sent.map((f) => f.name)).toEqual(['sku_data.csv']);
    expect(await sent[0]!.text()).toBe('sku,daily_picks\nA,1\n');
  });

  it('lists every dataset, following next_cursor', async () => {
    const item = (key: string) => ({ key, kind: 'master', created_at: '2026-11-23T08:00:00Z', tables: [] });
    const { api, requests } = apiWith({
      'GET /api/v1/sessions/main/data': (request) =>
        new URL(request.url).searchParams.get('cursor') === 'c1'
          ? { body: { items: [item('b')], next_cursor: null } }
          : { body: { items: [item('a')], next_cursor: 'c1' } },
    });
    expect((await api.listDatasets('main')).map((d) => d.key)).toEqual(['a', 'b']);
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['?limit=500', '?limit=500&cursor=c1']);
  });
});
