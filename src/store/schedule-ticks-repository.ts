import { type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, ScheduleTicksTable } from './database.js';
import { databaseTime } from './database-time.js';
import { dialectAdapterOf } from './dialect.js';

export type TickRow = Selectable<ScheduleTicksTable>;
export type TickChange = Updateable<ScheduleTicksTable>;

/** A tick to claim: its identity; the row is written `running` (held) or `skipped` (with why). */
export interface TickClaim {
  readonly id: string;
  readonly scheduleId: string;
  readonly sessionId: string;
  readonly dueAt: string;
  readonly manual: boolean;
  readonly missed: number;
}

/** The `scheduler_heartbeat` rows: when a node last looked, and when the latest downtime ended. */
const HEARTBEAT = 'ticker';
const DOWNTIME = 'downtime_until';

/**
 * The `schedule_ticks` table: claiming a due tick (an insert the unique (schedule_id, due_at) lets
 * exactly one node win), the lease of a running tick, and its steps. Every write of a running tick
 * is conditional on its lease being this node's: a node that lost it (it stalled past the lease and
 * another took over) changes nothing.
 */
export class ScheduleTicksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The database's clock now (ISO text): due times and leases use no host clock. */
  async now(): Promise<string> {
    const row = await this.db.selectNoFrom(databaseTime(this.db, 0).as('now')).executeTakeFirstOrThrow();
    return row.now;
  }

  /**
   * Records this look and answers the end of the latest downtime (undefined if none was seen): a
   * look finding the previous one more than `downAfterMs` ago records its own time as the end of a
   * downtime. The heartbeat row is locked first, so when several nodes start together exactly one sees
   * the gap and every other finds the downtime it recorded (none takes the missed ticks for due ones).
   */
  async beat(now: string, downAfterMs: number): Promise<string | undefined> {
    const adapter = dialectAdapterOf(this.db);
    return this.db.transaction().execute(async (trx) => {
      const seen = (name: string) => trx.selectFrom('scheduler_heartbeat').select('seen_at').where('name', '=', name);
      const previous = (await adapter.lockingRows(seen(HEARTBEAT)).executeTakeFirst())?.seen_at;
      // Read after the lock is held: a downtime another node recorded meanwhile is committed and seen.
      let downUntil = (await seen(DOWNTIME).executeTakeFirst())?.seen_at;
      const set = (name: string, at: string) =>
        trx
          .insertInto('scheduler_heartbeat')
          .values({ name, seen_at: at })
          .onConflict((oc) => oc.column('name').doUpdateSet({ seen_at: at }).where('scheduler_heartbeat.seen_at', '<', at))
          .execute();
      if (previous !== undefined && Date.parse(now) - Date.parse(previous) > downAfterMs && (downUntil === undefined || downUntil < now)) {
        await set(DOWNTIME, now);
        downUntil = now;
      }
      await set(HEARTBEAT, now);
      return downUntil;
    });
  }

  /** The latest due time recorded for the schedule (manual ticks aside), or undefined. */
  async lastDue(scheduleId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('schedule_ticks').select((eb) => eb.fn.max('due_at').as('due')).where('schedule_id', '=', scheduleId).where('manual', '=', 0).executeTakeFirst();
    return row?.due ?? undefined;
  }

  /** The schedule's running tick, if any (at most one runs at a time; later ones are skipped). */
  running(scheduleId: string): Promise<TickRow | undefined> {
    return this.db.selectFrom('schedule_ticks').selectAll().where('schedule_id', '=', scheduleId).where('status', '=', 'running').orderBy('seq').executeTakeFirst();
  }

  /**
   * Inserts the tick as running and held by `owner` for `leaseMs`; answers false when another node
   * recorded this (schedule, due time) first.
   */
  async claim(tick: TickClaim, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .insertInto('schedule_ticks')
      .values({
        ...this.identity(tick),
        status: 'running',
        stage: 'claimed',
        lease_owner: owner,
        lease_until: databaseTime(this.db, leaseMs),
        started_at: databaseTime(this.db, 0),
      })
      .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Records the tick as skipped (its schedule's previous tick still runs); false when already recorded. */
  async skip(tick: TickClaim, reason: string): Promise<boolean> {
    const result = await this.db
      .insertInto('schedule_ticks')
      .values({ ...this.identity(tick), status: 'skipped', stage: 'ended', reason, ended_at: databaseTime(this.db, 0) })
      .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Takes over running ticks whose lease ran out (their node died or stalled); answers them. */
  async takeOverExpired(owner: string, leaseMs: number): Promise<TickRow[]> {
    return this.db
      .updateTable('schedule_ticks')
      .set({ lease_owner: owner, lease_until: databaseTime(this.db, leaseMs) })
      .where('status', '=', 'running')
      .where('lease_until', '<', databaseTime(this.db, 0))
      .returningAll()
      .execute();
  }

  /** The running ticks `owner` holds. */
  heldBy(owner: string): Promise<TickRow[]> {
    return this.db.selectFrom('schedule_ticks').selectAll().where('status', '=', 'running').where('lease_owner', '=', owner).orderBy('seq').execute();
  }

  /** Extends the leases of the ticks `owner` holds. */
  async renew(owner: string, leaseMs: number): Promise<void> {
    await this.db.updateTable('schedule_ticks').set({ lease_until: databaseTime(this.db, leaseMs) }).where('status', '=', 'running').where('lease_owner', '=', owner).execute();
  }

  /** Gives up the leases of `owner` at once (a clean shutdown): another node takes its ticks over. */
  async release(owner: string): Promise<void> {
    await this.db.updateTable('schedule_ticks').set({ lease_until: databaseTime(this.db, -1) }).where('status', '=', 'running').where('lease_owner', '=', owner).execute();
  }

  /** Changes a running tick `owner` holds; false when it holds it no longer. */
  async change(id: string, owner: string, change: TickChange, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db.updateTable('schedule_ticks').set(change).where('id', '=', id).where('status', '=', 'running').where('lease_owner', '=', owner).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a running tick `owner` holds: `done` or `failed`, at the database's time. */
  async end(id: string, owner: string, change: TickChange & { status: 'done' | 'failed' }, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db
      .updateTable('schedule_ticks')
      .set({ ...change, stage: 'ended', lease_owner: null, lease_until: null, ended_at: databaseTime(db, 0) })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  get(id: string): Promise<TickRow | undefined> {
    return this.db.selectFrom('schedule_ticks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The schedule's ticks, newest first, at most `limit`. */
  list(scheduleId: string, limit: number): Promise<TickRow[]> {
    return this.db.selectFrom('schedule_ticks').selectAll().where('schedule_id', '=', scheduleId).orderBy('due_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  }

  /** Each schedule's latest tick, for the list of schedules. */
  async latestOf(scheduleIds: readonly string[]): Promise<Map<string, TickRow>> {
    if (scheduleIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('schedule_ticks as t')
      .selectAll('t')
      .where('t.schedule_id', 'in', scheduleIds)
      .where((eb) => eb('t.seq', '=', eb.selectFrom('schedule_ticks as u').select((u) => u.fn.max('u.seq').as('m')).whereRef('u.schedule_id', '=', 't.schedule_id')))
      .execute();
    return new Map(rows.map((r) => [r.schedule_id, r]));
  }

  private identity(tick: TickClaim) {
    return { id: tick.id, schedule_id: tick.scheduleId, session_id: tick.sessionId, due_at: tick.dueAt, manual: tick.manual ? 1 : 0, missed: tick.missed };
  }
}
