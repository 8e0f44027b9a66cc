import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../store/database.js';
import type { RunEvents } from '../events.js';
import { addRunJobs } from './graphile-queue.js';

/**
 * Adds the jobs of newly queued runs in batches: one statement at a time, holding every run queued
 * while the previous one was in flight. Each batch first waits for the event log to hold the runs'
 * `queued` events, so a worker's `started` is always logged after them. A batch that fails is left
 * to the reaper, which adds a job for every QUEUED scenario without one.
 */
export class RunJobAdder {
  private pending: string[] = [];
  private adding: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: RunEvents,
    private readonly log: Logger,
  ) {}

  /** Call after the run's `run:queued` was emitted. */
  add(scenarioId: string): void {
    this.pending.push(scenarioId);
    this.adding ??= this.addPending().finally(() => (this.adding = undefined));
  }

  /** Resolves once every run handed to `add` so far has its job (or was left to the reaper). */
  async settled(): Promise<void> {
    while (this.adding) await this.adding;
  }

  private async addPending(): Promise<void> {
    while (this.pending.length > 0) {
      // Taken before waiting: `recorded` covers only what was emitted before it is called.
      const batch = this.pending.splice(0);
      try {
        await this.events.recorded();
        await addRunJobs(this.db, batch);
      } catch (err) {
        this.log.warn({ err, runs: batch.length }, 'could not add run jobs yet; the reaper adds them');
      }
    }
  }
}
