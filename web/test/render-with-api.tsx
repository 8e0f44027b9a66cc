import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import { answeringFetch, type Route } from './answering-fetch.ts';

/** Renders `ui` with the API answered from `routes` and a fresh query cache; returns the recorded requests. */
export function renderWithApi(ui: ReactNode, routes: Record<string, Route>) {
  const server = answeringFetch(routes);
  const api = createApi(new ApiConfig('http://localhost/api/v1', null), server.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <ApiProvider api={api}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </ApiProvider>,
  );
  return { ...result, server, client };
}
