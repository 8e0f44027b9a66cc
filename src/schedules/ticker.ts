import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ScheduleRow } from '../store/schedules-repository.js';
import { SchedulesRepository } from '../store/schedules-repository.js';
import { ScheduleTicksRepository, type TickClaim } from '../store/schedule-ticks-repository.js';
import { latestTicksBetween, parsedCron, ticksBetween } from './cron.js';
import { catchUpOf } from './schedule-row.js';
import { TickRunner, type TickDeps } from './tick-runner.js';

export interface TickerOptions {
  /** How often this node looks for due ticks (default 500 ms). */
  readonly everyMs?: number;
  /** How long a running tick stays this node's without renewal (default 6 s): a dead node's ticks are taken over after it. */
  readonly leaseMs?: number;
}

/** Without any node looking for this long, the time since counts as downtime (`catch_up` applies). */
const DOWN_AFTER_MS = 5_000;
/** Due ticks enumerated in one look; a longer backlog only counts. */
const MAX_ENUMERATED = 10_000;

/**
 * The scheduler of one process (every API node runs one). Each turn it reads the database's clock,
 * records that a node looked (the heartbeat), renews its leases, takes over ticks whose lease ran out,
 * claims the due ticks of every active schedule, and drives the ticks it holds. Exactly once on many
 * nodes comes from the database, not from memory: a tick is a row unique per (schedule, due time),
 * claimed by the insert that wins; its effects are recorded step by step on it (see `TickRunner`).
 */
export class Ticker {
  /** In each running tick's `lease_owner`: an operator (or a test) sees which host and process holds it. */
  private readonly owner = `ticker/${hostname()}/${process.pid}/${randomUUID()}`;
  private readonly ticks: ScheduleTicksRepository;
  private readonly schedules: SchedulesRepository;
  private readonly runner: TickRunner;
  private readonly everyMs: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private turn: Promise<void> | undefined;
  private readonly driving = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly deps: TickDeps,
    options: TickerOptions = {},
  ) {
    this.ticks = new ScheduleTicksRepository(deps.store.db);
    this.schedules = new SchedulesRepository(deps.store.db);
    this.runner = new TickRunner(deps, this.owner);
    this.everyMs = options.everyMs ?? 500;
    this.leaseMs = options.leaseMs ?? 6_000;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops looking, lets the steps in flight end, and hands this node's ticks to the others at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.turn;
    await Promise.all(this.driving.values());
    await this.ticks.release(this.owner).catch((err: unknown) => this.deps.log.warn({ err }, 'could not release schedule ticks'));
  }

  /** Records a tick due now (manual) and drives it; a tick still running makes it `skipped`. */
  async runNow(schedule: ScheduleRow): Promise<string> {
    const now = await this.ticks.now();
    const claim: TickClaim = { id: randomUUID(), scheduleId: schedule.id, sessionId: schedule.session_id, dueAt: now, manual: true, missed: 0 };
    await this.claimOrSkip(claim);
    this.drive();
    return claim.id;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.turn = this.look()
        .catch((err: unknown) => this.deps.log.warn({ err }, 'the scheduler could not look for due ticks; trying again'))
        .finally(() => {
          this.turn = undefined;
          this.schedule(this.everyMs);
        });
    }, delayMs);
  }

  private async look(): Promise<void> {
    const now = await this.ticks.now();
    const downtime = await this.ticks.beat(now, DOWN_AFTER_MS);
    await this.ticks.renew(this.owner, this.leaseMs);
    const taken = await this.ticks.takeOverExpired(this.owner, this.leaseMs);
    if (taken.length > 0) this.deps.log.info({ ticks: taken.map((t) => t.id) }, 'took over schedule ticks whose node stopped');
    for (const schedule of await this.schedules.active()) {
      if (this.stopped) return;
      await this.claimDue(schedule, new Date(now), downtime === undefined ? undefined : new Date(downtime)).catch((err: unknown) => this.deps.log.warn({ err, schedule: schedule.id }, 'could not claim due ticks'));
    }
    this.drive();
  }

  /**
   * Records the schedule's ticks due by `now`: claimed, skipped behind a running one, or caught up.
   * Ticks due up to the end of the latest downtime (`downUntil`) that no row records yet fell due
   * while no node was up: `catch_up` decides about them, from the same stored facts on every node.
   */
  private async claimDue(schedule: ScheduleRow, now: Date, downUntil: Date | undefined): Promise<void> {
    const cron = parsedCron(schedule);
    const last = await this.ticks.lastDue(schedule.id);
    const from = new Date(Math.max(Date.parse(schedule.ticks_from), last === undefined ? 0 : Date.parse(last)));
    const backlogUntil = schedule.backlog_until === null ? 0 : Date.parse(schedule.backlog_until);
    if (downUntil !== undefined && from.getTime() < downUntil.getTime()) {
      // A caught-up backlog (`catch_up: all`) is not missed again.
      const missed = ticksBetween(cron, new Date(Math.max(from.getTime(), backlogUntil)), downUntil, MAX_ENUMERATED);
      if (missed.ticks.length > 0) {
        await this.catchUp(schedule, new Date(Math.max(from.getTime(), backlogUntil)), downUntil, missed);
        return;
      }
    }
    const { ticks } = ticksBetween(cron, from, now, MAX_ENUMERATED);
    for (const due of ticks) {
      const claim: TickClaim = { id: randomUUID(), scheduleId: schedule.id, sessionId: schedule.session_id, dueAt: due.toISOString(), manual: false, missed: 0 };
      // A caught-up backlog waits its turn; an on-time tick behind a running one is skipped.
      if (due.getTime() <= backlogUntil && (await this.ticks.running(schedule.id)) !== undefined) return;
      await this.claimOrSkip(claim);
    }
  }

  /**
   * Ticks in (from, downUntil] fell due while no node was up: `none` drops them, `latest` runs the
   * last, `all` the last `max` one after another. Each node works out the same from the same rows,
   * so two nodes doing it at once claim the same tick (the database keeps one).
   */
  private async catchUp(schedule: ScheduleRow, from: Date, downUntil: Date, missed: { ticks: Date[]; more: boolean }): Promise<void> {
    const policy = catchUpOf(schedule);
    if (policy.mode === 'none') {
      await this.schedules.advance(schedule.id, downUntil.toISOString(), null);
      return;
    }
    // A tick taken over from before the downtime may still run: the catch-up waits for it (a later look).
    if ((await this.ticks.running(schedule.id)) !== undefined) return;
    const kept = latestTicksBetween(parsedCron(schedule), from, downUntil, policy.mode === 'latest' ? 1 : policy.max);
    const first = kept[0];
    if (first === undefined) return;
    // Beyond MAX_ENUMERATED the count is a floor: a long downtime of a per-second schedule is not walked whole.
    const count = missed.more ? MAX_ENUMERATED : missed.ticks.length;
    const claim: TickClaim = { id: randomUUID(), scheduleId: schedule.id, sessionId: schedule.session_id, dueAt: first.toISOString(), manual: false, missed: Math.max(0, count - kept.length) };
    // Counted from just before the first kept tick; the rest of the backlog waits its turn.
    await this.schedules.advance(schedule.id, new Date(first.getTime() - 1).toISOString(), kept.length > 1 ? kept.at(-1)!.toISOString() : null);
    await this.ticks.claim(claim, this.owner, this.leaseMs);
  }

  private async claimOrSkip(claim: TickClaim): Promise<void> {
    const running = await this.ticks.running(claim.scheduleId);
    if (running !== undefined) {
      await this.ticks.skip(claim, `the tick due at ${running.due_at} was still running`);
      return;
    }
    await this.ticks.claim(claim, this.owner, this.leaseMs);
  }

  /** Starts a step of every tick this node holds that has none in flight. */
  private drive(): void {
    if (this.stopped) return;
    void this.ticks
      .heldBy(this.owner)
      .then((held) => {
        for (const tick of held) {
          if (this.driving.has(tick.id) || this.stopped) continue;
          // Marked as driven in the same turn as the check, before anything is awaited: two drives at
          // once (a manual run's and the look's) each passed the check while the other awaited its
          // schedule, and both acted on the tick (a replan tick re-planned twice; the second found the
          // successor's name taken).
          const step = this.schedules
            .getById(tick.schedule_id)
            .then((schedule) => (schedule === undefined ? undefined : this.runner.step(tick, schedule)))
            .catch((err: unknown) => this.deps.log.warn({ err, tick: tick.id }, 'schedule tick step failed'))
            .finally(() => this.driving.delete(tick.id));
          this.driving.set(tick.id, step);
        }
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'could not read the schedule ticks this node holds'));
  }
}
