import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { Api } from './api/client.ts';
import { ApiProvider } from './api/context.tsx';
import type { buildRouter } from './router.tsx';

export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: (count, error) => count < 2 && !('status' in (error as object)) },
      mutations: { retry: false },
    },
  });
}

export function App({ api, client, router }: { api: Api; client: QueryClient; router: ReturnType<typeof buildRouter> }) {
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ApiProvider>
  );
}
