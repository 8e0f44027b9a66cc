import type { ScenaristEvent } from './events.js';
import type { paths } from './schema.js';
import type { ScenaristClient } from './index.js';

/** The body of `POST /sessions/{sid}/experiments`, but for `run` (the helper runs it). */
type CreateBody = Omit<NonNullable<paths['/sessions/{sid}/experiments']['post']['requestBody']>['content']['application/json'], 'run'>;

/** An experiment with its counts, progress and summary, as `GET .../experiments/{eid}` answers it. */
export interface ExperimentResult {
  readonly id: string;
  readonly name: string;
  readonly size: number;
  readonly counts: Record<string, number>;
  readonly progress: number;
  readonly summary: unknown;
  readonly [field: string]: unknown;
}

export interface RunExperimentOptions {
  /** Session id or display name. */
  readonly session: string;
  readonly experiment: CreateBody;
  /** Told of each `experiment.progress` event of this experiment. */
  readonly onProgress?: (event: ScenaristEvent) => void;
  /** Gives up waiting (the experiment keeps running on the server). */
  readonly signal?: AbortSignal;
  /** How often the experiment is also read while waiting, in case an event was missed (default 2 s). */
  readonly checkEveryMs?: number;
}

/** The server's refusal as an Error carrying its body (`{ detail, code, errors? }`). */
function refused(body: unknown, fallback: string): Error {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  return Object.assign(new Error(typeof detail === 'string' ? detail : fallback), { body });
}

const finished = (e: ExperimentResult) => (e.counts.QUEUED ?? 0) + (e.counts.PROCESSING ?? 0) === 0;

/**
 * Creates an experiment, runs it, waits through the session's events until its last run ended, and
 * answers the experiment with its summary. The experiment is created first and run once the event
 * stream is being read; it is also read every `checkEveryMs`, so a dropped stream never leaves the
 * caller waiting for ever. Throws an Error whose `body` is the server's (`{ detail, code, errors? }`) on a refusal.
 */
export async function runExperiment(client: ScenaristClient, options: RunExperimentOptions): Promise<ExperimentResult> {
  const sid = options.session;
  const created = await client.POST('/sessions/{sid}/experiments', { params: { path: { sid } }, body: { ...options.experiment, run: false } });
  if (created.error !== undefined || created.data === undefined) throw refused(created.error, 'experiment not created');
  const eid = created.data.id;
  const read = async (): Promise<ExperimentResult> => {
    const reply = await client.GET('/sessions/{sid}/experiments/{eid}', { params: { path: { sid, eid } } });
    if (reply.error !== undefined || reply.data === undefined) throw refused(reply.error, 'experiment not readable');
    return reply.data;
  };
  const stop = new AbortController();
  options.signal?.addEventListener('abort', () => stop.abort(options.signal?.reason), { once: true });
  let wake: () => void = () => {};
  const watching = client
    .watchEvents({
      session: sid,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.experiment_id !== eid) return;
        if (event.type === 'experiment.progress') options.onProgress?.(event);
        if (event.type === 'experiment.completed') wake();
      },
    })
    .catch(() => {});
  try {
    const run = await client.POST('/sessions/{sid}/experiments/{eid}/run', { params: { path: { sid, eid } } });
    if (run.error !== undefined) throw refused(run.error, 'experiment not run');
    for (;;) {
      const current = await read();
      if (finished(current)) return current;
      if (stop.signal.aborted) throw stop.signal.reason ?? new Error('aborted');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.checkEveryMs ?? 2_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        stop.signal.addEventListener('abort', () => wake(), { once: true });
      });
    }
  } finally {
    stop.abort();
    await watching;
  }
}
