import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, StoredStatus } from '../database.js';

/** The conditions a claim's UPDATE holds a row to (see `claim-run.ts`), all settled inside the database. */

/**
 * `status = 'QUEUED'` with the status as a literal: how both databases' planners tell that the
 * partial index of queued rows applies (`scenarios_queued_by_session`, migration 0035); a bound
 * parameter hides it from them.
 */
export const QUEUED = sql.lit<StoredStatus>('QUEUED');

/**
 * `'PROCESSING'` as a literal, as every status a claim's subqueries compare with. SQLite runs a
 * subquery with a bound parameter several times slower than the same subquery with a literal: the
 * one-at-a-time claim took 0.29 ms with its statuses bound and 0.03 ms with them written in (1,000
 * queued runs, better-sqlite3's SQLite 3.53), most of what a run's start cost the SQLite server.
 */
export const PROCESSING = sql.lit<StoredStatus>('PROCESSING');

/**
 * No scenario of the row's session is PROCESSING (the spec's one-at-a-time rule), but for `endedId`:
 * a run whose end is written in the same statement, whose snapshot still holds it PROCESSING.
 */
export function noneProcessingInSession(eb: ExpressionBuilder<Database, 'scenarios'>, endedId?: string) {
  const processing = eb
    .selectFrom('scenarios as p')
    .select(sql<number>`1`.as('one'))
    .whereRef('p.session_id', '=', 'scenarios.session_id')
    .where('p.status', '=', PROCESSING);
  return eb.not(eb.exists(endedId === undefined ? processing : processing.where('p.id', '<>', endedId)));
}

/**
 * No scenario of the row's session was queued before it (queue order, then creation): a session's runs
 * start in the order they were queued even when claimed by id, as a job of its own is. Without it a
 * run whose job was put back (its session was busy) could be overtaken by the next run's job.
 */
export function firstQueuedInSession(eb: ExpressionBuilder<Database, 'scenarios'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('scenarios as q')
        .select(sql<number>`1`.as('one'))
        .whereRef('q.session_id', '=', 'scenarios.session_id')
        .where('q.status', '=', QUEUED)
        .where((e) =>
          e.or([
            e('q.queue_order', '<', e.ref('scenarios.queue_order')),
            e.and([e('q.queue_order', '=', e.ref('scenarios.queue_order')), e('q.seq', '<', e.ref('scenarios.seq'))]),
          ]),
        ),
    ),
  );
}

/** PROCESSING scenarios of the row's session. */
export function processingInSession(eb: ExpressionBuilder<Database, 'scenarios'>) {
  return eb
    .selectFrom('scenarios as p')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('p.session_id', '=', 'scenarios.session_id')
    .where('p.status', '=', PROCESSING);
}

/**
 * A wide claim of a session's head (`max_running_per_session` N above 1) takes the free slot only
 * when its session is the fair pick: no other session with a free slot runs fewer scenarios, nor as
 * many with an older head. A slot freed by a session holding several thus goes to a session holding
 * fewer, and among equals to the oldest queued run: with N = 1 that is the FIFO across free sessions.
 *
 * The other sessions are gathered from the queue first and each is weighed once: weighing every
 * QUEUED row made a claim in a sweep of a thousand runs count its session's runs a thousand times
 * (hundreds of milliseconds while holding the session's claims key). They are gathered by skipping
 * from one session to the next in the index of queued rows (`waitingSessions`): grouping the queue
 * read every queued row at every claim.
 */
export function fairPick(eb: ExpressionBuilder<Database, 'scenarios'>, max: number, { endingInSession = false } = {}) {
  // A claim in the statement that ends a run of this session sees that run still PROCESSING: one less.
  const own = endingInSession ? eb(processingInSession(eb), '-', sql.lit(1)) : processingInSession(eb);
  const running = eb
    .selectFrom('scenarios as r')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('r.session_id', '=', sql.ref<string>('s.session_id'))
    .where('r.status', '=', PROCESSING);
  const olderHead = eb.exists(
    eb
      .selectFrom('scenarios as q')
      .select(sql<number>`1`.as('one'))
      .where('q.session_id', '=', sql.ref<string>('s.session_id'))
      .where('q.status', '=', QUEUED)
      .where((e) =>
        e.or([
          e('q.queue_order', '<', e.ref('scenarios.queue_order')),
          e.and([e('q.queue_order', '=', e.ref('scenarios.queue_order')), e('q.seq', '<', e.ref('scenarios.seq'))]),
        ]),
      ),
  );
  return eb.not(
    eb.exists(
      eb
        .selectFrom(waitingSessions.as('s'))
        .select(sql<number>`1`.as('one'))
        .whereRef('s.session_id', '<>', 'scenarios.session_id')
        .where(running, '<', max)
        .where((e) => e.or([e(running, '<', own), e.and([e(running, '=', own), olderHead])])),
    ),
  );
}

/**
 * The sessions with a QUEUED scenario, one index lookup each (a loose index scan, which neither
 * database plans on its own): the first session id in the index of queued rows, then the first one
 * after it, and so on, so the cost grows with the sessions waiting, not with their queued runs.
 */
export const waitingSessions = sql<{ session_id: string }>`(
  with recursive waiting (session_id) as (
    select (select w.session_id from scenarios w where w.status = ${QUEUED} order by w.status, w.session_id limit 1)
    union all
    select (select w.session_id from scenarios w where w.status = ${QUEUED} and w.session_id > waiting.session_id order by w.status, w.session_id limit 1)
    from waiting where waiting.session_id is not null
  )
  select session_id from waiting where session_id is not null
)`;
