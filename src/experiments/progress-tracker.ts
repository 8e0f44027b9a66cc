import type { Logger } from 'pino';
import type { EventFacts } from '../model/event-types.js';
import type { RunEvents } from '../executor/events.js';
import type { ExperimentProgressRead, ExperimentsRepository } from '../store/experiments-repository.js';
import { countsView } from './counts.js';

/** At most 4 progress events a second per experiment (per process). */
const INTERVAL_MS = 250;

/**
 * Turns the run events of an experiment's scenarios into `experiment.progress` (when its counts
 * changed, coalesced to one per interval) and `experiment.completed` (when no run of it is queued or
 * running any more). Counts are read from the database, so whichever process sees a change reports
 * the state of every process's runs; the completion is claimed on the experiment row, in the
 * transaction that logs its event, so of several processes seeing the last run end exactly one
 * reports it, and a crash loses neither or both (the next start settles what it left). Whether the
 * experiment is open again is not this tracker's to judge from what it happened to see: queuing one
 * of its scenarios reopens it in the database, in the same statement (migration 0013), so a rerun
 * that ends before the tracker looks is still completed again.
 */
export class ExperimentProgress {
  private readonly scenarios = new Set<string>();
  private readonly sent = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly experiments: ExperimentsRepository,
    private readonly record: (facts: EventFacts) => void,
    private readonly log: Logger,
    /** Told after a completion may have been logged (on SQLite: wake the event feed). */
    private readonly onCompleted?: () => void,
  ) {}

  /** Follows the run events of `events`; answers the function that stops following (and flushes). */
  follow(events: RunEvents): () => Promise<void> {
    const touch = (e: { scenarioId: string }) => this.touch(e.scenarioId);
    const stops = (['run:queued', 'run:started', 'run:completed', 'run:failed', 'run:reset'] as const).map((name) => events.on(name, touch));
    return async () => {
      for (const stop of stops) stop();
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.flushing;
      await this.flush();
    };
  }

  private touch(scenarioId: string): void {
    this.scenarios.add(scenarioId);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flush()
        .catch((err: unknown) => this.log.warn({ err }, 'experiment progress: could not read counts'))
        .finally(() => (this.flushing = undefined));
    }, INTERVAL_MS);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const ids = [...this.scenarios];
    this.scenarios.clear();
    if (ids.length === 0) return;
    for (const { id, sessionId } of await this.experiments.experimentsOf(ids)) {
      await this.settle(id, sessionId, await this.experiments.progressRead(sessionId, id));
    }
  }

  /**
   * Reports changed counts, and the completion once when nothing of it is queued or running (with
   * its last progress, in the transaction that marks it).
   */
  private async settle(id: string, sessionId: string, read: ExperimentProgressRead): Promise<void> {
    const { counts, progress } = countsView(read.counts);
    const key = JSON.stringify(counts);
    const changed = this.sent.get(id) !== key;
    this.sent.set(id, key);
    const progressDetails = { experiment_id: id, counts, progress };
    const active = counts.QUEUED + counts.PROCESSING;
    const ended = counts.COMPLETE + counts.FAILED;
    if (active === 0 && ended > 0) {
      const events = [...(changed ? [{ type: 'experiment.progress', details: progressDetails }] : []), { type: 'experiment.completed', details: { experiment_id: id, counts } }];
      if (await this.experiments.markCompleted(id, sessionId, new Date().toISOString(), read, events)) {
        this.onCompleted?.();
        return;
      }
      // Already marked (by another process, with its own last progress), or a scenario was queued
      // since the read (its end settles it): the changed counts are still told.
    }
    if (changed) this.record({ type: 'experiment.progress', session_id: sessionId, ...progressDetails });
  }

  /**
   * Settles the experiments whose last run ended while no process could (it crashed between the
   * run's end and the completion): called once at start.
   */
  async settleLeftovers(): Promise<void> {
    try {
      for (const { id, sessionId } of await this.experiments.unsettled()) {
        await this.settle(id, sessionId, await this.experiments.progressRead(sessionId, id));
      }
    } catch (err) {
      this.log.warn({ err }, 'experiments: could not settle those whose last run ended during a crash; their next run end does');
    }
  }
}
