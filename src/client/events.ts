/**
 * `watchEvents`: the session's event stream (`GET /sessions/{sid}/events`, server-sent events) read with
 * fetch, so it runs wherever fetch streams (Node 20, browsers, workers) and can send a bearer token,
 * which the browser's EventSource cannot. A dropped connection is resumed with `Last-Event-ID`, so no
 * event is missed or repeated across reconnects.
 */

/** One event of a session, as the server sends it in `data`. */
export interface ScenaristEvent {
  /** Store-wide increasing id; resume after it with `since`. */
  readonly id: number;
  /** e.g. `scenario.completed`, `dataset.created`, `session.renamed`. */
  readonly type: string;
  readonly session_id: string;
  readonly at: string;
  readonly scenario_id?: string;
  readonly tag?: string;
  readonly status?: string;
  readonly progress?: number;
  readonly report?: unknown;
  readonly message?: string;
  /** `scenario.failed`: why the run failed (CANCELLED, TIME_LIMIT, INTERRUPTED, ALGORITHM_ERROR, KPI_ERROR; an external algorithm's OUTPUT_LIMIT, LOG_LIMIT, MEMORY_LIMIT). */
  readonly code?: string;
  readonly dataset_key?: string;
  readonly display_name?: string;
  readonly [field: string]: unknown;
}

export interface WatchEventsOptions {
  /** Session id or display name. */
  readonly session: string;
  /** Only events after this id (default: from now on). */
  readonly since?: number;
  /** Called for each event, in order; a returned promise is awaited before the next event. */
  readonly onEvent: (event: ScenaristEvent) => void | Promise<void>;
  /** Stops watching; `watchEvents` then resolves. */
  readonly signal: AbortSignal;
  /** Told of each failed connection before it is retried (default: ignored). */
  readonly onError?: (error: Error) => void;
}

export interface EventStreamConnection {
  readonly baseUrl: string;
  readonly token?: string;
  readonly fetch: typeof globalThis.fetch;
}

/** An HTTP error the stream cannot recover from by retrying (unknown session, bad token). */
export class EventStreamError extends Error {
  override readonly name = 'EventStreamError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`event stream answered ${status}: ${typeof body === 'object' && body !== null && 'detail' in body ? String(body.detail) : JSON.stringify(body)}`);
  }
}

const INITIAL_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

interface RawEvent {
  id?: string;
  event?: string;
  data: string[];
  retry?: number;
}

/** Parses SSE text into events as lines arrive (comments such as `: ping` are skipped). */
export class SseParser {
  private buffer = '';
  private current: RawEvent = { data: [] };

  /** Feeds text; answers the events it completed. */
  push(text: string): RawEvent[] {
    this.buffer += text;
    const done: RawEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const breakLength = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      // A lone \r at the very end may be the first half of \r\n: wait for more text.
      if (breakLength === 1 && this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(end + breakLength);
      if (line === '') {
        if (this.current.data.length > 0 || this.current.id !== undefined) done.push(this.current);
        this.current = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.current.data.push(value);
      else if (field === 'id') this.current.id = value;
      else if (field === 'event') this.current.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.current.retry = Number(value);
    }
    return done;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Reads the session's events until `signal` aborts; reconnects after network errors and 5xx answers. */
export async function watchEvents(connection: EventStreamConnection, options: WatchEventsOptions): Promise<void> {
  const { signal } = options;
  let lastId = options.since;
  let retryMs = INITIAL_RETRY_MS;
  let first = true;
  while (!signal.aborted) {
    try {
      // A string, not a URL object: the base may be relative (`/api/v1` in a page), which `new URL` rejects.
      let url = `${connection.baseUrl.replace(/\/+$/, '')}/sessions/${encodeURIComponent(options.session)}/events`;
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (connection.token !== undefined) headers.authorization = `Bearer ${connection.token}`;
      if (lastId !== undefined) {
        if (first) url += `?since=${encodeURIComponent(String(lastId))}`;
        else headers['last-event-id'] = String(lastId);
      }
      first = false;
      const response = await connection.fetch(url, { headers, signal });
      if (!response.ok) {
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        if (response.status < 500 && response.status !== 408 && response.status !== 429) throw new EventStreamError(response.status, body);
        throw new Error(`event stream answered ${response.status}`);
      }
      if (!response.body) throw new Error('event stream answered without a body');
      retryMs = INITIAL_RETRY_MS;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const raw of parser.push(decoder.decode(value, { stream: true }))) {
          if (raw.retry !== undefined) retryMs = raw.retry;
          if (raw.data.length === 0) continue;
          const data = JSON.parse(raw.data.join('\n')) as ScenaristEvent;
          const id = raw.id !== undefined && /^\d+$/.test(raw.id) ? Number(raw.id) : data.id;
          await options.onEvent({ ...data, id, type: data.type ?? raw.event ?? 'message' });
          lastId = id;
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof EventStreamError) throw err;
      options.onError?.(err instanceof Error ? err : new Error(String(err)));
      await sleep(retryMs, signal);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      continue;
    }
    // The server closed the stream: reconnect at once from the last event.
  }
}
