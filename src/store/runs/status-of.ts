import type { Kysely } from 'kysely';
import type { Database, StoredStatus } from '../database.js';

/** A scenario's status and session, if it exists (a run job checking it still has work). */
export async function statusOf(db: Kysely<Database>, id: string): Promise<{ status: StoredStatus; sessionId: string } | undefined> {
  const row = await db.selectFrom('scenarios').select(['status', 'session_id']).where('id', '=', id).executeTakeFirst();
  return row && { status: row.status, sessionId: row.session_id };
}
