import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The PostgreSQL channel on which a scenario to stop is announced (payload: its id). */
export const CANCEL_CHANNEL = 'scenarist_cancel';

/** Asks every process to stop these scenarios (the cancel channel's listeners, wherever they run). */
export async function notifyCancel(db: Kysely<Database>, scenarioIds: readonly string[]): Promise<void> {
  for (const id of scenarioIds) await sql`select pg_notify(${CANCEL_CHANNEL}::text, ${id}::text)`.execute(db);
}
