import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { createApi } from '../src/api/client.ts';
import { ApiConfig } from '../src/api/http.ts';
import { App } from '../src/App.tsx';
import { buildRouter } from '../src/router.tsx';
import { answeringFetch, type Route } from './answering-fetch.ts';

/**
 * The whole app at `path` (its router in memory), the API answered from `routes` over a session `main`
 * with one schema group and nothing in it; returns the recorded requests and the router.
 */
export const BASE = '/api/v1/sessions/main';
const SESSIONS = { sessions: [{ id: '00000000-0000-4000-8000-000000000001', display_name: 'main' }], default: '00000000-0000-4000-8000-000000000001' };
const SCHEMAS = {
  items: [
    {
      name: 'warehouse_layout',
      description: 'The storage locations.',
      required: true,
      file_names: ['warehouse_layout.csv', 'warehouse_layout.xlsx', 'warehouse_layout.json'],
      tables: [
        {
          name: 'warehouse_layout',
          description: null,
          columns: [
            { name: 'location', type: 'string', required: true, nullable: false, key: 'primary', unit: null, description: 'Location identifier.' },
            { name: 'x', type: 'float', required: true, nullable: false, key: null, unit: 'm', description: null },
          ],
        },
      ],
    },
  ],
};

export function app(routes: Record<string, Route>, path: string, auth: 'none' | 'token' = 'none') {
  const server = answeringFetch({
    'GET /api/v1/health': () => ({ body: { status: 'ok', title: 't', sessions: ['main'], auth } }),
    'GET /api/v1/sessions': () => ({ body: SESSIONS }),
    [`GET ${BASE}/data`]: () => ({ body: { items: [], next_cursor: null } }),
    [`GET ${BASE}/scenarios`]: () => ({ body: [] }),
    [`GET ${BASE}/schemas`]: () => ({ body: SCHEMAS }),
    [`GET ${BASE}/kpis`]: () => ({ body: { kpis: ['travel'], items: [{ name: 'travel', unit: 'm', better_when: 'LOWER', threshold: null, description: null }] } }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { algorithms: [], items: [] } }),
    ...routes,
  });
  const api = createApi(new ApiConfig('http://localhost/api/v1', null), server.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = buildRouter(createMemoryHistory({ initialEntries: [path] }));
  render(<App api={api} client={client} router={router} />);
  return Object.assign(server, { router });
}

