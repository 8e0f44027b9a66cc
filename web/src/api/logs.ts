import type { Api } from './client.ts';
import { toApiError } from './http.ts';

/**
 * `GET /sessions/{sid}/scenarios/{id}/logs` (operationId `getScenarioLogs`): the run-insight route, typed
 * here by hand exactly as its contract gives it because the generated schema of the typed client does not
 * have it yet. Once the server with that route is merged and `src/client/schema.ts` regenerated, the lead
 * replaces this file's call with `http.GET('/sessions/{sid}/scenarios/{id}/logs', ...)` in `./client.ts`
 * and these types with the schema's.
 */

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogLine {
  /** ISO time. */
  at: string;
  level: LogLevel;
  /** At most 2,000 characters. */
  message: string;
  fields?: Record<string, unknown>;
}

/** The error a FAILED run threw: its class, message and stack lines (the domain module's first). */
export interface RunError {
  class: string;
  message: string;
  stack: string[];
}

/** The last 1,000 lines of the latest run (none for a scenario never run). */
export interface RunLogs {
  lines: LogLine[];
  truncated: boolean;
  error?: RunError;
}

export async function getScenarioLogs(api: Api, sid: string, id: string): Promise<RunLogs> {
  const url = `${api.baseUrl}/sessions/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(id)}/logs`;
  const response = await api.fetch(url, { headers: api.config.headers({ accept: 'application/json' }) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  if (!response.ok) throw toApiError(api.config, response, body);
  return body as RunLogs;
}
