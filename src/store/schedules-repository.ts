import type { Kysely, Selectable } from 'kysely';
import type { Database, SchedulesTable } from './database.js';

export type ScheduleRow = Selectable<SchedulesTable>;
export type NewScheduleRow = Omit<ScheduleRow, 'seq' | 'backlog_until'> & { backlog_until?: string | null };
export type ScheduleChange = Partial<Omit<NewScheduleRow, 'id' | 'session_id' | 'created_at'>>;

/** The `schedules` table (migration 0032); ticks are `ScheduleTicksRepository`'s. */
export class SchedulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewScheduleRow): Promise<ScheduleRow> {
    return this.db.insertInto('schedules').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The session's schedules, oldest first. */
  list(sessionId: string): Promise<ScheduleRow[]> {
    return this.db.selectFrom('schedules').selectAll().where('session_id', '=', sessionId).orderBy('seq').execute();
  }

  get(sessionId: string, id: string): Promise<ScheduleRow | undefined> {
    return this.db.selectFrom('schedules').selectAll().where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
  }

  /** Every active schedule of every session: what the ticker looks at. */
  active(): Promise<ScheduleRow[]> {
    return this.db.selectFrom('schedules').selectAll().where('active', '=', 1).orderBy('seq').execute();
  }

  /** Every schedule with a refresh (the drop folders `/health/ready` checks). */
  refreshing(): Promise<ScheduleRow[]> {
    return this.db.selectFrom('schedules').selectAll().where('refresh_key', 'is not', null).orderBy('seq').execute();
  }

  async update(sessionId: string, id: string, change: ScheduleChange): Promise<ScheduleRow | undefined> {
    return this.db.updateTable('schedules').set(change).where('session_id', '=', sessionId).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Moves where ticks are counted from forward (never back): missed ticks acknowledged by catch-up. */
  async advance(id: string, ticksFrom: string, backlogUntil: string | null): Promise<void> {
    await this.db.updateTable('schedules').set({ ticks_from: ticksFrom, backlog_until: backlogUntil }).where('id', '=', id).where('ticks_from', '<', ticksFrom).execute();
  }

  getById(id: string): Promise<ScheduleRow | undefined> {
    return this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Deletes the schedule and its ticks; false when there was none. */
  async delete(sessionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('schedules').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
