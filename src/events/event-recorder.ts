import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { RunEvents } from '../executor/events.js';
import type { EventLog } from '../store/event-log.js';
import type { EventFacts } from '../model/event-types.js';
import { ProgressThrottle } from './progress-throttle.js';

export interface EventRecorderOptions {
  readonly log: Logger;
  /** Minimum time between two progress events of one scenario (100 ms: at most 10 a second). */
  readonly progressIntervalMs?: number;
  /** Called after each committed batch (SQLite: wake the SSE feed; PostgreSQL: number the events). */
  readonly onAppended?: () => void;
}

/** Facts written in one transaction at most. */
const MAX_BATCH = 1_000;
/** Tries of one batch while the database is unreachable, 0.5 s apart and growing. */
const WRITE_TRIES = 8;

/** Run events after which a scenario's waiting progress report is out of date. */
const LIFE_CYCLE_ENDS = ['run:queued', 'run:completed', 'run:failed', 'run:reset', 'run:deleted', 'run:cancelled'] as const;

/**
 * Logs the events that no state change writes: progress reports (throttled per scenario) and the
 * experiment counts. Life-cycle events are not its concern: the store's outbox triggers log each
 * in the transaction of its state change. Writes are serial and in emission order (one batch in
 * flight; whatever arrives meanwhile forms the next batch). An executor about to record a run's end
 * waits on `events.progressRecorded(run)`, which lets the run's waiting report out and resolves once
 * it is committed: the last progress reported is thereby always logged before the life-cycle event.
 * A report that only reaches the log after that event is dropped by the log (its scenario is no
 * longer PROCESSING).
 */
export class EventRecorder {
  private readonly queue: EventFacts[] = [];
  private draining: Promise<void> | undefined;
  /** Facts ever enqueued, and ever written or given up: a barrier waits for the second to reach the first. */
  private enqueued = 0;
  private settled = 0;
  private readonly waiters: { upto: number; resolve: () => void }[] = [];
  private readonly throttle: ProgressThrottle;
  private readonly unfollow: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly eventLog: EventLog,
    private readonly options: EventRecorderOptions,
  ) {
    this.throttle = new ProgressThrottle(options.progressIntervalMs ?? 100, (facts) => this.record(facts));
  }

  /** Records the progress events of `events` from now on, and holds its progress barrier. */
  follow(events: RunEvents): void {
    this.unfollow.push(
      events.addBarrier((run) => {
        this.throttle.settle(run.scenarioId, false);
        return this.recorded();
      }),
      events.on('run:progress', (e) =>
        this.throttle.report(e.scenarioId, {
          type: 'scenario.progress',
          session_id: e.sessionId,
          scenario_id: e.scenarioId,
          status: 'PROCESSING',
          progress: e.progress,
          ...(e.report ? { report: e.report } : {}),
        }),
      ),
      ...LIFE_CYCLE_ENDS.map((name) => events.on(name, (e) => this.throttle.forget(e.scenarioId))),
    );
  }

  /** Queues one event for the log (datasets and sessions are recorded straight from their services' hooks). */
  record(facts: EventFacts): void {
    if (this.closed) {
      this.options.log.warn({ event: facts.type }, 'event emitted after the event recorder closed; not logged');
      return;
    }
    this.queue.push(facts);
    this.enqueued++;
    // Written once the current turn's code has run, so that the events it records share one
    // transaction; whatever arrives while a batch is written forms the next one. (Waiting a few milliseconds for more saved nothing measurable on
    // any run path once life-cycle events moved to the outbox: docs/benchmarks.md, "Speed layers".)
    this.draining ??= Promise.resolve()
      .then(() => this.drain())
      .finally(() => (this.draining = undefined));
  }

  /** Resolves once every event recorded before this call is committed (or given up). */
  recorded(): Promise<void> {
    if (this.settled >= this.enqueued) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ upto: this.enqueued, resolve }));
  }

  /** Writes what is waiting (throttled progress included) and stops following. */
  async close(): Promise<void> {
    for (const stop of this.unfollow.splice(0)) stop();
    this.throttle.settleAll();
    this.closed = true;
    await this.recorded();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const written = await this.write(batch);
      this.settled += batch.length;
      if (written) this.options.onAppended?.();
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i]!;
        if (waiter.upto <= this.settled) {
          this.waiters.splice(i, 1);
          waiter.resolve();
        }
      }
    }
  }

  private async write(batch: readonly EventFacts[]): Promise<number | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.eventLog.append(batch);
      } catch (err) {
        if (attempt >= WRITE_TRIES) {
          this.options.log.error({ err, events: batch.length }, 'could not log events; they are not delivered');
          return undefined;
        }
        this.options.log.warn({ err, attempt }, 'could not log events yet; retrying');
        await delay(Math.min(500 * attempt, 3_000));
      }
    }
  }
}
