import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import type { Database } from '../../store/database.js';
import { addRunJob, addRunJobs, addWakeJobs, forceUnlockWorkers, idleQueueHolds, queuedWithoutJob, removeRunJob, runLockers, sessionsWithFreeSlots } from '../../store/postgres/graphile-queue.js';
import type { RunsRepository } from '../../store/runs-repository.js';
import type { RunEvents } from '../events.js';

export interface ReaperOptions {
  readonly db: Kysely<Database>;
  readonly runs: RunsRepository;
  readonly events: RunEvents;
  readonly log: Logger;
  /** A run whose lease was not renewed for this long is taken back. */
  readonly leaseMs: number;
  /** Whether a run is this process's own (its flush renews the lease; never reclaimed here). */
  readonly runsHere: (scenarioId: string) => boolean;
  /** `max_running_per_session`: above 1, sessions with queued runs and a free slot get their wake jobs. */
  readonly maxRunningPerSession: number;
}

const now = () => new Date().toISOString();

/**
 * The distributed executor's periodic check, run by every process: takes back runs whose process
 * died (expired lease: queued again once, FAILED the second time), releases session queues that
 * dead graphile workers still hold, and gives every QUEUED scenario its job. Never throws.
 */
export class Reaper {
  private reaping = false;
  /** The queue holds the last reap saw with nothing of their session PROCESSING (see `idleQueueHolds`). */
  private idleHolds = new Set<string>();

  constructor(private readonly options: ReaperOptions) {}

  async reap(): Promise<void> {
    if (this.reaping) return;
    this.reaping = true;
    try {
      await this.reclaimExpired();
      await this.releaseOrphanedQueues();
      const { db } = this.options;
      await addRunJobs(db, (await queuedWithoutJob(db)).map((ref) => ref.scenarioId));
      const max = this.options.maxRunningPerSession;
      if (max > 1) await addWakeJobs(db, await sessionsWithFreeSlots(db, max), max - 1);
    } catch (err) {
      this.options.log.warn({ err }, 'executor: lease and queue check failed; retrying');
    } finally {
      this.reaping = false;
    }
  }

  private async reclaimExpired(): Promise<void> {
    const { db, runs, events, log, leaseMs } = this.options;
    for (const expired of await runs.expiredRuns(leaseMs)) {
      if (this.options.runsHere(expired.scenarioId)) continue; // ours: the flush renews it
      const lockers = await runLockers(db, expired);
      const outcome = await runs.reclaim(expired, now());
      if (outcome === 'lost') continue;
      await forceUnlockWorkers(db, lockers);
      const ids = { scenario_id: expired.scenarioId, session_id: expired.sessionId };
      if (outcome === 'requeued') {
        log.warn(ids, 'the process running this scenario stopped renewing its lease; queued again');
        await addRunJob(db, expired);
        events.emit('run:queued', { scenarioId: expired.scenarioId, sessionId: expired.sessionId, recovered: true });
      } else {
        log.error(ids, 'the process running this scenario died on its second attempt; scenario FAILED');
        await removeRunJob(db, expired.scenarioId);
        events.emit('run:failed', { scenarioId: expired.scenarioId, sessionId: expired.sessionId, message: INTERRUPTED_TWICE, code: 'INTERRUPTED' });
      }
    }
  }

  /**
   * A live worker going on with its session's next runs holds the queue with nothing PROCESSING for
   * moments: only a holder seen so at two reaps in a row, its session's runs unmoved, is dead.
   */
  private async releaseOrphanedQueues(): Promise<void> {
    const { db, log, leaseMs } = this.options;
    const holds = (await idleQueueHolds(db, leaseMs)).map((h) => ({ worker: h.worker, key: `${h.worker} ${h.queue} ${h.progress}` }));
    const orphaned = [...new Set(holds.filter((h) => this.idleHolds.has(h.key)).map((h) => h.worker))];
    this.idleHolds = new Set(holds.map((h) => h.key));
    if (orphaned.length > 0) {
      log.warn({ workers: orphaned }, 'graphile workers that died holding a session queue; released');
      await forceUnlockWorkers(db, orphaned);
    }
  }
}
