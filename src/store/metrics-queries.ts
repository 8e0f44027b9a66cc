import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** The reads behind `GET /metrics` (src/metrics): each a small aggregate, made at scrape time. */

/** A scenario's algorithm, by primary key (undefined once deleted). */
export async function algorithmOf(db: Kysely<Database>, scenarioId: string): Promise<string | undefined> {
  const row = await db.selectFrom('scenarios').select('algo_name').where('id', '=', scenarioId).executeTakeFirst();
  return row?.algo_name;
}

/** How many webhook deliveries are in each status. */
export async function deliveriesByStatus(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** The highest id in the event log (0 when empty). */
export async function newestEventId(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('event_log').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Per session with queued runs: how many, and when the oldest was queued (ISO). */
export async function queuedBySession(db: Kysely<Database>): Promise<{ depth: number; oldest: string | null }[]> {
  const rows = await db
    .selectFrom('scenarios')
    .select([sql<number | string>`count(*)`.as('depth'), (eb) => eb.fn.min('queued_at').as('oldest')])
    .where('status', '=', 'QUEUED')
    .groupBy('session_id')
    .execute();
  return rows.map((r) => ({ depth: Number(r.depth), oldest: r.oldest }));
}
