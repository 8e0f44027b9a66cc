import createClient, { type Client } from 'openapi-fetch';
import { watchEvents, type WatchEventsOptions } from './events.js';
import type { components, operations, paths } from './schema.js';

/**
 * The typed client of the Scenarist API: `import { createScenaristClient } from 'scenarist/client'`.
 * Every route, its parameters, bodies and answers are typed from the server's OpenAPI document
 * (`schema.ts`); `watchEvents` follows a session's live events.
 */

export type { components, operations, paths };
export { EventStreamError, SseParser, type ScenaristEvent, type WatchEventsOptions } from './events.js';
export { runExperiment, type ExperimentResult, type RunExperimentOptions } from './run-experiment.js';

export interface ScenaristClientOptions {
  /** The server with its API prefix, e.g. `http://localhost:8000/api/v1`. */
  readonly baseUrl: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  readonly fetch?: typeof globalThis.fetch;
}

export type ScenaristClient = Client<paths> & {
  /** Follows the session's events until `signal` aborts; see `WatchEventsOptions`. */
  watchEvents(options: WatchEventsOptions): Promise<void>;
};

/** An error body of the API: `detail` for people, `code` for programs (`errors` on 422). */
export type ScenaristErrorBody = { detail: string; code: string; errors?: { path: string; message: string }[] };

export function createScenaristClient(options: ScenaristClientOptions): ScenaristClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  // openapi-fetch calls `fetch(request)`; a custom fetch gets the same single Request argument.
  const client = createClient<paths>({ baseUrl, headers, fetch: (request: Request) => fetchImpl(request) });
  return Object.assign(client, {
    watchEvents: (watch: WatchEventsOptions) => watchEvents({ baseUrl, token: options.token, fetch: fetchImpl }, watch),
  });
}
