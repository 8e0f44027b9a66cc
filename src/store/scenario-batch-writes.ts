import { sql, type Kysely, type UpdateObject } from 'kysely';
import { CANCELLED_MESSAGE } from '../model/run-state/run-error.js';
import type { StatusChange } from '../model/run-state/changes.js';
import { recordColumns, type ScenarioRecord } from './scenarios-repository.js';
import type { Database, StoredStatus } from './database.js';
import { queueBase } from './experiments-repository.js';
import { chunks } from './chunks.js';
import { ENDED, NO_RUN } from './run-columns.js';

/** What a batch action may act on: a scenario picked by a client's filter or id list. */
export interface BatchTarget {
  readonly id: string;
  readonly seq: number;
}

/** A scenario a batch delete removed, with the status it had. */
export interface DeletedRow {
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
}

/**
 * The targets still in one of `c.from` get `values`, one conditional UPDATE per chunk of ids;
 * `afterChunk` runs with each chunk's changed rows (in the same transaction).
 */
async function transition(
  trx: Kysely<Database>, sessionId: string, targets: readonly BatchTarget[], c: StatusChange,
  values: UpdateObject<Database, 'scenarios'>,
  afterChunk?: (chunk: readonly BatchTarget[], rows: readonly ScenarioRecord[]) => Promise<void>,
): Promise<ScenarioRecord[]> {
  const changed: ScenarioRecord[] = [];
  for (const chunk of chunks(targets)) {
    const rows = await trx
      .updateTable('scenarios')
      .set(values)
      .where('session_id', '=', sessionId)
      .where('id', 'in', chunk.map((t) => t.id))
      .where('status', 'in', c.from)
      .returning(recordColumns)
      .execute();
    changed.push(...rows);
    await afterChunk?.(chunk, rows);
  }
  return changed;
}

/**
 * Each write is one conditional UPDATE (or DELETE) per chunk of ids on the state machine's
 * from-states, inside the caller's transaction: a scenario changed meanwhile by another request is
 * simply not in the answer, so of a batch and a single action racing exactly one wins.
 */
export const batchWrites = {
  /** Queues the targets in `c.from`, in creation order, behind everything queued or running. */
  async queue(trx: Kysely<Database>, sessionId: string, targets: readonly BatchTarget[], c: StatusChange, now: string): Promise<ScenarioRecord[]> {
    if (targets.length === 0) return [];
    const base = await queueBase(trx);
    const first = Math.min(...targets.map((t) => t.seq));
    return transition(trx, sessionId, targets, c, { status: c.to, ...NO_RUN, queue_order: sql<number>`${base - first + 1} + seq`, queued_at: now });
  },

  /** Back to CREATED with everything of the run cleared, log lines too. */
  async reset(trx: Kysely<Database>, sessionId: string, targets: readonly BatchTarget[], c: StatusChange): Promise<ScenarioRecord[]> {
    return transition(trx, sessionId, targets, c, { status: c.to, ...NO_RUN }, async (chunk, rows) => {
      const reset = new Set(rows.map((r) => r.id));
      const seqs = chunk.filter((t) => reset.has(t.id)).map((t) => t.seq);
      if (seqs.length > 0) await trx.deleteFrom('scenario_log_lines').where('scenario_seq', 'in', seqs).execute();
    });
  },

  /** FAILED with code CANCELLED, kept; a run in flight loses its token. */
  async cancel(trx: Kysely<Database>, sessionId: string, targets: readonly BatchTarget[], c: StatusChange, now: string): Promise<ScenarioRecord[]> {
    return transition(trx, sessionId, targets, c, { status: c.to, ...ENDED, result: null, kpi_values: null, error: CANCELLED_MESSAGE, error_code: 'CANCELLED', finished_at: now });
  },

  /** Removes the targets whatever their status; answers each with the status it had. */
  async delete(trx: Kysely<Database>, sessionId: string, targets: readonly BatchTarget[]): Promise<DeletedRow[]> {
    const deleted: DeletedRow[] = [];
    for (const chunk of chunks(targets)) {
      const rows = await trx
        .deleteFrom('scenarios')
        .where('session_id', '=', sessionId)
        .where('id', 'in', chunk.map((t) => t.id))
        .returning(['id', 'tag', 'status'])
        .execute();
      deleted.push(...rows);
    }
    return deleted;
  },
};
