import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Schedules (docs/api/schedules.md). A schedule is data; each tick is a row with a unique
 * (schedule_id, due_at), so on many nodes exactly one claims a due tick: the insert that wins the
 * constraint. A running tick holds a lease (`lease_until`, database time) that its node renews; a
 * tick whose lease ran out is taken over by another node, which goes on from the tick's `stage`
 * (the steps it finished are recorded on the row, each with what it made, so none is repeated).
 * `scheduler_heartbeat` holds when any node last looked for due ticks: ticks due after that, while
 * no node was up, are the ones `catch_up` decides about.
 */
export function schedulesMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('schedules')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('cron', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('refresh_key', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('notify', 'text')
        .addColumn('catch_up', 'text', (c) => c.notNull())
        .addColumn('catch_up_bound', 'integer')
        .addColumn('ticks_from', 'text', (c) => c.notNull())
        .addColumn('backlog_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('schedules_session_name', ['session_id', 'name'])
        .execute();
      await db.schema.createIndex('schedules_active').on('schedules').columns(['active', 'seq']).execute();
      await db.schema
        .createTable('schedule_ticks')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('schedule_id', 'text', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('manual', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('stage', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('error', 'text')
        .addColumn('missed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('started_at', 'text')
        .addColumn('ended_at', 'text')
        .addColumn('refresh', 'text')
        .addColumn('data_version', 'integer')
        .addColumn('action_mark', 'text')
        .addColumn('scenario_ids', 'text')
        .addColumn('outcome', 'text')
        .addUniqueConstraint('schedule_ticks_once', ['schedule_id', 'due_at'])
        .execute();
      await db.schema.createIndex('schedule_ticks_by_schedule').on('schedule_ticks').columns(['schedule_id', 'seq']).execute();
      await db.schema.createIndex('schedule_ticks_running').on('schedule_ticks').columns(['status', 'lease_until']).execute();
      await db.schema
        .createTable('scheduler_heartbeat')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
