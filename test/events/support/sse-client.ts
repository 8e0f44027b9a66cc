/** A minimal SSE client for tests: parses frames off a real HTTP response, as EventSource would. */

export interface SseEvent {
  readonly id: number;
  readonly type: string;
  readonly data: Record<string, unknown> & { id: number; type: string; session_id: string; scenario_id?: string };
}

export interface SseConnection {
  readonly events: SseEvent[];
  /** Comment lines received (`ping`, ...). */
  readonly comments: string[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** The id of the last event received (what EventSource sends as Last-Event-ID). */
  lastId(): number | undefined;
  /** Waits until `check` holds on the events so far; throws with what arrived after `ms`. */
  waitFor(check: (events: readonly SseEvent[]) => boolean, ms?: number, what?: string): Promise<void>;
  close(): void;
}

export async function connectSse(url: string, lastEventId?: number): Promise<SseConnection> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }, signal: abort.signal });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`not an event stream: ${res.headers.get('content-type')}`);
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const decoder = new TextDecoder();
  let buffer = '';
  // Set before the listeners hear of the end, so that a wait for events that never came fails at once.
  let done = false;
  const ended = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          parseFrame(frame, events, comments);
        }
        for (const listener of listeners) listener();
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    } finally {
      done = true;
      for (const listener of listeners) listener();
    }
  })();
  ended.catch(() => {});
  return {
    events,
    comments,
    ended,
    lastId: () => events.at(-1)?.id,
    waitFor: (check, ms = 60_000, what = 'the expected events') =>
      new Promise<void>((resolve, reject) => {
        const test = () => {
          if (check(events)) {
            cleanup();
            resolve();
          } else if (done) {
            cleanup();
            reject(new Error(`stream ended before ${what}; got ${events.length} events`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${what}; got ${events.length} events, last ${JSON.stringify(events.at(-1)?.data)}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(test);
        };
        listeners.add(test);
        test();
      }),
    close: () => abort.abort(),
  };
}

function parseFrame(frame: string, events: SseEvent[], comments: string[]): void {
  let id: number | undefined;
  let type = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) id = Number(line.slice(4));
    else if (line.startsWith('event: ')) type = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (id === undefined || data.length === 0) return;
  events.push({ id, type, data: JSON.parse(data.join('\n')) as SseEvent['data'] });
}

/**
 * Checks a stream's scenario events: ids strictly increasing, none twice, and for each scenario the
 * life cycle in order. Answers the problems found (empty when all is well).
 */
export function lifeCycleProblems(events: readonly SseEvent[], scenarioIds: readonly string[]): string[] {
  const problems: string[] = [];
  for (let i = 1; i < events.length; i++) {
    if (events[i]!.id <= events[i - 1]!.id) problems.push(`id ${events[i]!.id} after ${events[i - 1]!.id}`);
  }
  const byScenario = new Map<string, string[]>();
  for (const e of events) {
    if (e.data.scenario_id === undefined) continue;
    const seq = byScenario.get(e.data.scenario_id) ?? [];
    seq.push(e.type);
    byScenario.set(e.data.scenario_id, seq);
  }
  for (const id of scenarioIds) {
    const seq = (byScenario.get(id) ?? []).filter((t) => t !== 'scenario.progress');
    const expected = ['scenario.created', 'scenario.queued', 'scenario.started', 'scenario.completed'];
    if (seq.join() !== expected.join()) problems.push(`${id}: ${seq.join(' > ')}`);
  }
  return problems;
}
