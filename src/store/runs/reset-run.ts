import type { Kysely } from 'kysely';
import type { StatusChange } from '../../model/run-state/changes.js';
import type { Database } from '../database.js';
import { NO_RUN } from '../run-columns.js';
import { deleteLogLines } from '../run-log-lines.js';
import { recordColumns, type ScenarioRecord, type ScenarioRef } from '../scenarios-repository.js';

/** Client `reset`: clears everything of the run when the status is one of `c.from`, its log lines too. */
export async function resetRun(db: Kysely<Database>, ref: ScenarioRef, c: StatusChange): Promise<ScenarioRecord | undefined> {
  const reset = await db
    .updateTable('scenarios')
    .set({ status: c.to, ...NO_RUN })
    .where('session_id', '=', ref.sessionId)
    .where('id', '=', ref.id)
    .where('status', 'in', c.from)
    .returning(recordColumns)
    .executeTakeFirst();
  // Hidden already (log_count is 0); removed to free their space.
  if (reset) await deleteLogLines(db, ref.id);
  return reset;
}
