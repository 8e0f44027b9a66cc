import type { Kysely } from 'kysely';
import { changeFor } from '../../model/run-state/changes.js';
import { CANCELLED_MESSAGE } from '../../model/run-state/run-error.js';
import type { Database } from '../database.js';
import { ENDED } from '../run-columns.js';
import { recordColumns, type ScenarioRecord, type ScenarioRef } from '../scenarios-repository.js';

/**
 * Client `cancel`: a QUEUED or PROCESSING scenario ends FAILED with code CANCELLED and is kept. Its
 * run (if any) loses its token, so nothing it writes afterwards lands. Undefined when the change
 * did not apply (another request or the run's own outcome won).
 */
export function cancelRun(db: Kysely<Database>, ref: ScenarioRef, now: string): Promise<ScenarioRecord | undefined> {
  const cancel = changeFor('cancel');
  return db
    .updateTable('scenarios')
    .set({ status: cancel.to, ...ENDED, result: null, kpi_values: null, error: CANCELLED_MESSAGE, error_code: 'CANCELLED', finished_at: now })
    .where('session_id', '=', ref.sessionId)
    .where('id', '=', ref.id)
    .where('status', 'in', cancel.from)
    .returning(recordColumns)
    .executeTakeFirst();
}
