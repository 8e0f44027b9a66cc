import { sql } from 'kysely';
import type { Store } from './store.js';

/**
 * A dataset's version token (changes with every write of it) and its version number ("Planning
 * cycles": 1, 2, 3 ... per key), or undefined when the session has no dataset of the key.
 */
export async function datasetToken(store: Store, sessionId: string, key: string): Promise<{ token: string; versionNo: number } | undefined> {
  const row = await store.db
    .selectFrom('datasets')
    .select(['version', sql<number>`version_no`.as('version_no')])
    .where('session_id', '=', sessionId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row === undefined ? undefined : { token: row.version, versionNo: Number(row.version_no) };
}
