import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { NUMBERING_PAGE, type EventLog } from '../store/event-log.js';
import { CoalescedTask } from '../async/coalesced-task.js';

/** How often the log is checked for unnumbered events without being told (a lost notification). */
const BACKSTOP_MS = 1_000;
/**
 * How long a request waits for more before numbering. A numbering is a transaction with a WAL flush
 * under the counter's lock, and a NOTIFY, however many events it numbers (1.27 ms of the database's
 * time per call on the machine at rest, 18 times a flushed commit); writes a few milliseconds apart
 * then share one, while a subscriber hears of an event at most that much later. At 4 ms nearly
 * every sequential write paid a numbering of its own; at 20 ms, 1,000 creates on PostgreSQL took
 * 20-26 % less time in two alternating rounds (docs/benchmarks.md), and a status change still
 * reaches the dashboard well within its 300 ms.
 */
const GATHER_MS = 20;

/**
 * What a `scenarist worker` process waits: nobody's request waits on its numbering, and every
 * numbering is a commit under the counter's lock that all processes share. In a 32-slot sweep over
 * four worker processes they numbered after nearly every run's end at 20 ms (one call a run, the
 * costliest statement of a run's path); at 100 ms a worker numbers at most ten times a second, and a
 * run's events still reach the dashboard within its 300 ms.
 */
export const WORKER_GATHER_MS = 100;

/**
 * Numbers the events committed without an id (PostgreSQL): asked by the notification of each commit
 * that wrote events, and on a timer as a backstop (so events committed while no API node listened,
 * or just before a crash, are numbered by the next one). One call in flight at a time; asks that
 * arrive meanwhile make it go round once more. Calls of several processes serialize in the database.
 */
export class EventNumbering {
  private readonly numbering = new CoalescedTask(
    () => delay(this.gatherMs).then(() => this.numberAll()),
    (err) => this.log.warn({ err }, 'could not number new events yet; retrying'),
  );
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly eventLog: EventLog,
    private readonly log: Logger,
    /** How long a request waits for more before numbering (`GATHER_MS`, `WORKER_GATHER_MS`). */
    private readonly gatherMs: number = GATHER_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.request(), BACKSTOP_MS);
    this.timer.unref();
    this.request();
  }

  request(): void {
    this.numbering.ask();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.numbering.stop();
  }

  private async numberAll(): Promise<void> {
    // A call numbers at most a page of events; a long backlog (after an outage) takes several. Events
    // committed after a short page come with their own notification.
    while (!this.closed && (await this.eventLog.number()) >= NUMBERING_PAGE);
  }
}
