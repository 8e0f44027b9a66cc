import { ReadThroughCache } from '../cache/read-through-cache.js';
import type { RunEvents } from '../executor/events.js';
import type { ScenarioStatusRecord } from '../store/scenarios-repository.js';

/** What the status route serves, plus the session the scenario belongs to. */
export type CachedStatus = ScenarioStatusRecord & { readonly sessionId: string };

/** Enough for thousands of polled scenarios; an evicted one is read from the database again. */
const CAPACITY = 100_000;

/**
 * The status of scenarios by id, answered from memory. Only for a process that is the single
 * writer of its store (see `runtime/single-writer.ts`). Fed from one place, the run events: every
 * write of a scenario's status in this process, the service's (create, run, reset, cancel, delete,
 * session delete, batches, experiments) and the executor's, is announced there right after it commits.
 * On PostgreSQL other processes write too, so there the database stays the only source.
 */
export class StatusCache {
  private readonly cache = new ReadThroughCache<string, CachedStatus>(CAPACITY);

  get(id: string): CachedStatus | undefined {
    return this.cache.get(id);
  }

  /** The cached status, or `load`'s answer (kept unless a write happened meanwhile). */
  read(id: string, load: () => Promise<CachedStatus | undefined>): Promise<CachedStatus | undefined> {
    return this.cache.read(id, load);
  }

  /** Forgets everything (the executor stopped and put its runs back without announcing it). */
  clear(): void {
    this.cache.clear();
  }

  /** Follows every write of a scenario's status (see above); answers the function that stops following. */
  follow(events: RunEvents): () => void {
    const set = (id: string, change: Partial<Pick<CachedStatus, 'status' | 'progress' | 'reportJson' | 'errorCode'>>) =>
      this.cache.update(id, (entry) => ({ ...entry, ...change }));
    // A report changes only with one (a cancel announces none, and the row keeps the last one written).
    const report = (e: { report?: unknown }) => (e.report === undefined ? {} : { reportJson: JSON.stringify(e.report) });
    const offs = [
      // A new row: its whole status is known from the event.
      events.on('run:created', (e) =>
        this.cache.set(e.scenarioId, { id: e.scenarioId, sessionId: e.sessionId, tag: e.tag, status: 'CREATED', progress: 0, reportJson: null, errorCode: null }),
      ),
      events.on('run:queued', (e) => set(e.scenarioId, { status: 'QUEUED', progress: 0, reportJson: null, errorCode: null })),
      events.on('run:started', (e) => set(e.scenarioId, { status: 'PROCESSING', progress: 0, reportJson: null })),
      events.on('run:progress', (e) => set(e.scenarioId, { progress: e.progress, ...report(e) })),
      events.on('run:completed', (e) => set(e.scenarioId, { status: 'COMPLETE', progress: 1, ...report(e) })),
      // A failed run keeps the progress it last wrote, as its row does.
      events.on('run:failed', (e) => set(e.scenarioId, { status: 'FAILED', errorCode: e.code, ...report(e) })),
      events.on('run:reset', (e) => set(e.scenarioId, { status: 'CREATED', progress: 0, reportJson: null, errorCode: null })),
      events.on('run:cancelled', (e) => this.cache.delete(e.scenarioId)),
      events.on('run:deleted', (e) => this.cache.delete(e.scenarioId)),
      events.on('session:deleted', (e) => this.cache.deleteWhere((entry) => entry.sessionId === e.sessionId)),
    ];
    return () => offs.forEach((off) => off());
  }
}
