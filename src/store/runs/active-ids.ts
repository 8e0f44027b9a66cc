import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The session's QUEUED and PROCESSING scenarios (to stop before the session goes). */
export async function activeIds(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  const rows = await db.selectFrom('scenarios').select('id').where('session_id', '=', sessionId).where('status', 'in', ['QUEUED', 'PROCESSING']).execute();
  return rows.map((r) => r.id);
}
