import type { ReportView } from '../model/run-state/run-insight.js';
import type { StoredStatus } from '../store/database.js';
import type { RunEvents, RunRef } from './events.js';

/** A run executing in this process, as its live in-memory state shows it. */
export interface LiveRun {
  readonly sessionId: string;
  readonly tag: string;
  /** The algorithm's latest report, fresher than the batched value in the database. */
  readonly progress: number;
  /** The algorithm's latest `ctx.report`, fresher than the store's. */
  readonly report?: ReportView | undefined;
}

/**
 * Owns the queue and the rule "at most one PROCESSING scenario per session". The queue itself is
 * data in the database (QUEUED rows ordered by `queue_order`); an executor claims from it, runs,
 * and records outcomes. Implementations: `local/` (worker threads in this process) and, later,
 * `distributed/` (worker processes on PostgreSQL).
 */
export interface Executor {
  readonly events: RunEvents;
  /** Recovers runs interrupted by a previous process, then starts taking queued scenarios. */
  start(): Promise<void>;
  /** A scenario's row was just committed as QUEUED (by run or autorun): emit and dispatch. */
  queued(ref: RunRef): void;
  /**
   * Cancels a scenario for good, then calls `remove` to delete its row: a queued one is never
   * claimed; a running one gets its abort signal and, after a grace period, its thread is stopped.
   * Resolves after `remove`; from then on the scenario cannot run and no write of its run lands.
   * `remove` answers the status of the row it deleted (undefined when there was none).
   */
  cancel(ref: RunRef, remove: () => Promise<StoredStatus | undefined>): Promise<void>;
  /**
   * Stops the run of a scenario whose row was just ended by a client (`cancel`: FAILED, token
   * cleared): a run here gets its abort signal and, after the grace period, its thread is stopped;
   * other processes are told to stop theirs. Nothing the run does afterwards is written.
   */
  abort(ref: RunRef): Promise<void>;
  /** Like `cancel` for every queued and running scenario of a session; `remove` answers the rows it deleted. */
  cancelSession(sessionId: string, remove: () => Promise<RunRef[]>): Promise<void>;
  /** The live state of a run executing in this process; undefined when it does not run here. */
  live(scenarioId: string): LiveRun | undefined;
  /** Stops taking work; running scenarios are stopped and queued again for the next start. */
  close(): Promise<void>;
}
