import type { Kysely } from 'kysely';
import { MAX_LOG_LINES, type LogLine } from '../model/run-state/run-insight.js';
import type { Database } from './database.js';

/**
 * The `ctx.log` lines of scenarios' latest runs (`scenario_log_lines`). A scenario's `log_count` says
 * which lines are its latest run's (numbered 1 to `log_count`), so clearing it (reset, requeue, a new
 * claim) hides an earlier run's lines at once; they are removed when the next run writes its first
 * lines, on reset, or with the scenario.
 */

/** Rows per INSERT: 6 parameters each, well under SQLite's bound-parameter limit. */
const INSERT_BATCH = 150;

export interface LinesWrite {
  readonly rows: readonly LogLine[];
  /** The run's first lines to reach the store: earlier runs' lines go first. */
  readonly fresh: boolean;
  /** The run's line count after these rows. */
  readonly count: number;
}

/** Appends a run's lines, keeping its last `MAX_LOG_LINES`. Inside the transaction of the run's owned write. */
export async function appendLogLines(db: Kysely<Database>, scenarioSeq: number, write: LinesWrite): Promise<void> {
  if (write.fresh) await db.deleteFrom('scenario_log_lines').where('scenario_seq', '=', scenarioSeq).execute();
  const rows = write.rows.map((line) => ({
    scenario_seq: scenarioSeq,
    line: line.n,
    at: line.at,
    level: line.level,
    message: line.message,
    fields: line.fieldsJson ?? null,
  }));
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await db.insertInto('scenario_log_lines').values(rows.slice(i, i + INSERT_BATCH)).execute();
  if (write.count > MAX_LOG_LINES) {
    await db.deleteFrom('scenario_log_lines').where('scenario_seq', '=', scenarioSeq).where('line', '<=', write.count - MAX_LOG_LINES).execute();
  }
}

/** The last `MAX_LOG_LINES` lines of the run that wrote `count` lines, oldest first. */
export function readLogLines(db: Kysely<Database>, scenarioSeq: number, count: number) {
  return db
    .selectFrom('scenario_log_lines')
    .select(['line', 'at', 'level', 'message', 'fields'])
    .where('scenario_seq', '=', scenarioSeq)
    .where('line', '>', count - MAX_LOG_LINES)
    .where('line', '<=', count)
    .orderBy('line')
    .execute();
}

/** Removes every line of a scenario (its run state was reset). */
export async function deleteLogLines(db: Kysely<Database>, scenarioId: string): Promise<void> {
  await db
    .deleteFrom('scenario_log_lines')
    .where('scenario_seq', 'in', (eb) => eb.selectFrom('scenarios').select('seq').where('id', '=', scenarioId))
    .execute();
}

/**
 * Gives each copied scenario that kept its run (its `log_count` is the source's) the source's latest
 * run lines. A copy is matched to its source by tag, unique within a session. In the copy's transaction.
 */
export async function copyLogLines(db: Kysely<Database>, fromSessionId: string, toSessionId: string): Promise<void> {
  await db
    .insertInto('scenario_log_lines')
    .columns(['scenario_seq', 'line', 'at', 'level', 'message', 'fields'])
    .expression(
      db
        .selectFrom('scenarios as source')
        .innerJoin('scenario_log_lines as l', 'l.scenario_seq', 'source.seq')
        .innerJoin('scenarios as copy', (join) => join.onRef('copy.tag', '=', 'source.tag').on('copy.session_id', '=', toSessionId))
        .select(['copy.seq', 'l.line', 'l.at', 'l.level', 'l.message', 'l.fields'])
        .where('source.session_id', '=', fromSessionId)
        .where('copy.log_count', '>', 0)
        .whereRef('l.line', '<=', 'source.log_count'),
    )
    .execute();
}
