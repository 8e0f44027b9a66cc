import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../store/database.js';
import { addRunJobs } from '../../store/postgres/graphile-queue.js';

/**
 * Adds the jobs of newly queued runs in batches: one statement at a time, holding every run queued
 * while the previous one was in flight (a run's `queued` event is already logged with its state, so
 * a worker's `started` always comes after it). A batch that fails is left to the reaper, which adds
 * a job for every QUEUED scenario without one.
 */
export class RunJobAdder {
  private pending: string[] = [];
  private adding: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
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
      const batch = this.pending.splice(0);
      try {
        await addRunJobs(this.db, batch);
      } catch (err) {
        this.log.warn({ err, runs: batch.length }, 'could not add run jobs yet; the reaper adds them');
      }
    }
  }
}
