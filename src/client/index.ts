import createClient, { type Client } from 'openapi-fetch';
import { watchEvents, type WatchEventsOptions } from './events.js';
import type { ErrorCode } from '../errors.js';
import type { RunErrorCode } from '../model/run-state/run-error.js';
import type { components, operations, paths } from './schema.js';

/**
 * The typed client of the Scenarist API: `import { createScenaristClient } from 'scenarist/client'`.
 * Every route, its parameters, bodies and answers are typed from the server's OpenAPI document
 * (`schema.ts`); `watchEvents` follows a session's live events.
 */

export type { components, operations, paths };

/** A rendered domain view (`GET .../views/{name}`) and the spec of each kind (docs/api/views.md). */
export type View = operations['getSessionsBySidScenariosByIdViewsByName']['responses'][200]['content']['application/json'];
export type ViewSummary = components['schemas']['ViewSummary'];
export type TableViewSpec = components['schemas']['TableViewSpec'];
export type ChartViewSpec = components['schemas']['ChartViewSpec'];
export type MetricsViewSpec = components['schemas']['MetricsViewSpec'];
export type TextViewSpec = components['schemas']['TextViewSpec'];
export { EventStreamError, SseParser, type ScenaristEvent, type WatchEventsOptions } from './events.js';
export { csvField, csvLine, toCsv, type CsvValue } from '../exports/csv.js';
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

/**
 * Every `code` an error body can carry, as a union to `switch` on (docs/api/errors.md says what each
 * means and how to fix it). Codes are stable; a newer server may add codes, so keep a default branch.
 */
export type ScenaristErrorCode = ErrorCode;

/** Why a run failed: `error.code` of a FAILED scenario, `error_code` of its status, `code` of `scenario.failed`. */
export type ScenaristRunErrorCode = RunErrorCode;

/** An error body of the API: `detail` for people, `code` for programs, `errors` listing each offending field. */
export type ScenaristErrorBody = { detail: string; code: ScenaristErrorCode; errors?: { path: string; message: string }[] };

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
