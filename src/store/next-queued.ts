import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { preparedByShape } from './prepared-query.js';

export interface QueueHead {
  readonly id: string;
  readonly sessionId: string;
}

export interface ClaimExclusions {
  /** Sessions known to have a PROCESSING scenario (run here, winding down, or seen in the database). */
  readonly sessions: readonly string[];
  /** Scenarios being cancelled right now. */
  readonly ids: readonly string[];
}

interface LookShape {
  readonly sessions: number;
  readonly ids: number;
  readonly limit: number;
}

/** Excluded values travel as numbered parameters (`s0`, `s1`, `i0`...): the SQL depends only on how many. */
const headQuery = preparedByShape(
  (shape: LookShape) => `${shape.sessions}:${shape.ids}:${shape.limit}`,
  (db, shape, values: Readonly<Record<string, string>>) => {
    let query = db
      .selectFrom('scenarios')
      .select(['id', 'session_id as sessionId'])
      .where('status', '=', 'QUEUED')
      .orderBy('queue_order')
      .orderBy('seq')
      .limit(shape.limit);
    const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, k) => values[`${prefix}${k}`]!);
    if (shape.sessions > 0) query = query.where('session_id', 'not in', numbered('s', shape.sessions));
    if (shape.ids > 0) query = query.where('id', 'not in', numbered('i', shape.ids));
    return query;
  },
);

/**
 * The oldest QUEUED scenarios (by `queue_order`) outside the excluded sessions and ids, at most
 * `limit`, oldest first. The first, being the oldest of its session's queued scenarios too, is that
 * session's FIFO head; fewer rows than `limit` means that is all the queue holds outside the
 * exclusions. Whether a session is free is the caller's knowledge; `claim` checks it again.
 */
export async function nextQueued(db: Kysely<Database>, exclude: ClaimExclusions, limit = 1): Promise<QueueHead[]> {
  const values: Record<string, string> = {};
  exclude.sessions.forEach((session, k) => (values[`s${k}`] = session));
  exclude.ids.forEach((id, k) => (values[`i${k}`] = id));
  const result = await headQuery(db, { sessions: exclude.sessions.length, ids: exclude.ids.length, limit }, values);
  return result.rows;
}

/** The sessions with a PROCESSING scenario, whoever runs it: few rows, read from the status index. */
export async function processingSessions(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('scenarios').select('session_id').distinct().where('status', '=', 'PROCESSING').execute();
  return rows.map((r) => r.session_id);
}
