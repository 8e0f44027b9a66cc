import { sql, type Kysely, type Transaction } from 'kysely';
import { chunks } from './chunks.js';
import type { Database } from './database.js';
import { DialectBound } from './dialect-bound.js';
import type { DialectAdapter } from './dialect.js';
import { eventJson, type EventRow } from './event-json.js';
import { EVENT_TIME_SQL } from './migrations/outbox/postgres-outbox.js';
import { isEventType, type EventFacts, type LoggedEvent } from '../model/event-types.js';

/** Events numbered by one call of `number` at most (the outbox migration's `scenarist_number_events`). */
export const NUMBERING_PAGE = 10_000;

const toNumber = (value: number | string) => Number(value);

/**
 * The durable, bounded log of events. Life-cycle events are written by the store's own triggers
 * in the statement that changes a session's, dataset's or scenario's state (the outbox migration);
 * this class writes the others (progress, experiment counts) into the same outbox, and reads the
 * log. Ids are given in commit order (after commit on PostgreSQL, by `number`), so the ids a reader
 * sees are a gap-free prefix: a reader resuming after id n never misses a lower id that commits later.
 */
export class EventLog extends DialectBound {

  /**
   * Logs the events in order in one transaction (with a webhook delivery for every matching webhook
   * of their session, queued by the outbox) and answers how many were kept. A progress report is
   * kept only while its scenario is PROCESSING: one that is late for its run (the run ended, was
   * cancelled, reset or deleted meanwhile; that event is already logged) is dropped, so a subscriber
   * never sees progress after the scenario's next life-cycle event.
   */
  async append(facts: readonly EventFacts[]): Promise<number> {
    if (facts.length === 0) return 0;
    if (this.dialect.combinesWrites) return appendInOneStatement(this.db, facts);
    return this.db.transaction().execute(async (trx) => {
      const kept = await current(trx, this.dialect, facts);
      const rows = kept.map(({ type, session_id, ...details }) => ({ session_id, type, details: JSON.stringify(details) }));
      // Three values a row: well under SQLite's bound-variable limit per statement.
      for (const chunk of chunks(rows)) await trx.insertInto('event_outbox').values(chunk).execute();
      return rows.length;
    });
  }

  /**
   * Numbers the committed events that have no id yet (PostgreSQL, where events get their ids after
   * they commit; see the outbox migration) and answers how many it numbered. Safe to call from any
   * number of processes at once. On SQLite events are numbered as they are written: nothing to do.
   */
  async number(): Promise<number> {
    return this.dialect.numberCommittedEvents(this.db);
  }

  /** The id of the last committed event (0 when none was ever logged). */
  async lastId(): Promise<number> {
    const row = await this.db.selectFrom('event_counter').select('value').where('name', '=', 'events').executeTakeFirstOrThrow();
    return toNumber(row.value);
  }

  /** Every session's events with ids in (afterId, uptoId], in id order, at most `limit`. */
  between(afterId: number, uptoId: number, limit: number): Promise<LoggedEvent[]> {
    return this.read(undefined, afterId, uptoId, limit);
  }

  /** One session's events with ids in (afterId, uptoId], in id order, at most `limit`. */
  ofSession(sessionId: string, afterId: number, uptoId: number, limit: number): Promise<LoggedEvent[]> {
    return this.read(sessionId, afterId, uptoId, limit);
  }

  private async read(sessionId: string | undefined, afterId: number, uptoId: number, limit: number): Promise<LoggedEvent[]> {
    let query = this.db.selectFrom('event_log').select(['id', 'session_id', 'type', 'at', 'data']);
    if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
    const rows = await query.where('id', '>', afterId).where('id', '<=', uptoId).orderBy('id').limit(limit).execute();
    return rows.map(toLogged);
  }

  /**
   * Drops events logged before `before` (ISO time) and the finished deliveries of those days; then
   * the webhooks of deleted sessions that have nothing left to deliver. Answers the events dropped.
   */
  async prune(before: string): Promise<number> {
    const dropped = await this.db.deleteFrom('event_log').where('at', '<', before).executeTakeFirst();
    await this.db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', before).execute();
    await this.db
      .deleteFrom('webhooks')
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('sessions').select('sessions.id').whereRef('sessions.id', '=', 'webhooks.session_id'))),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('webhook_deliveries')
              .select('webhook_deliveries.id')
              .whereRef('webhook_deliveries.webhook_id', '=', 'webhooks.id')
              .where('webhook_deliveries.status', '=', 'pending'),
          ),
        ),
      )
      .execute();
    return Number(dropped.numDeletedRows);
  }
}

function toLogged(row: EventRow): LoggedEvent {
  if (!isEventType(row.type)) throw new Error(`event_log row ${row.id} has an unknown type '${row.type}'`);
  return { id: toNumber(row.id), sessionId: row.session_id, type: row.type, json: eventJson(row) };
}

/**
 * `append` as one statement (PostgreSQL, where a transaction of a read and an insert costs four round
 * trips, and a run's every progress flush and end appends): the progress reports' scenarios are read
 * `for share` in the statement that inserts, so the same rule holds. A report without a tag gets its
 * scenario's, appended as the last key of its JSON text, as `current` appends it.
 */
async function appendInOneStatement(db: Kysely<Database>, facts: readonly EventFacts[]): Promise<number> {
  const rows = facts.map(({ type, session_id, ...details }, ord) => {
    const needsTag = type === 'scenario.progress' && details.tag === undefined;
    return sql`(${ord}::int, ${session_id}::text, ${type}::text, ${JSON.stringify(details)}::text, ${details.scenario_id ?? null}::text, ${needsTag}::boolean)`;
  });
  // Straight into the log, as the outbox's triggers write (the `event_outbox` view's trigger is a call a row).
  const inserted = await sql`
    with facts (ord, session_id, type, details, scenario_id, needs_tag) as (values ${sql.join(rows)}),
    live as (
      select s.id, s.tag from scenarios s
      where s.id in (select f.scenario_id from facts f where f.type = 'scenario.progress') and s.status = 'PROCESSING'
      for share
    )
    insert into event_log (session_id, type, at, data)
    select f.session_id, f.type, ${sql.raw(EVENT_TIME_SQL)},
      case when f.needs_tag then left(f.details, -1) || case when f.details = '{}' then '' else ',' end || '"tag":' || to_json(l.tag)::text || '}' else f.details end
    from facts f left join live l on l.id = f.scenario_id
    where f.type <> 'scenario.progress' or l.id is not null
    order by f.ord`.execute(db);
  return Number(inserted.numAffectedRows ?? 0);
}

/**
 * Fills in the tags of progress reports and drops those whose scenario is no longer PROCESSING. On
 * PostgreSQL the scenarios' rows are share-locked, so a concurrent life-cycle change commits either
 * after this transaction (its event numbered after the progress) or before this read (seen here).
 */
async function current(trx: Transaction<Database>, dialect: DialectAdapter, facts: readonly EventFacts[]): Promise<EventFacts[]> {
  const asked = [...new Set(facts.filter((f) => f.type === 'scenario.progress' && f.scenario_id !== undefined).map((f) => f.scenario_id!))];
  if (asked.length === 0) return [...facts];
  const query = trx.selectFrom('scenarios').select(['id', 'tag', 'status']).where('id', 'in', asked);
  const rows = await dialect.sharingRows(query).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept: EventFacts[] = [];
  for (const fact of facts) {
    if (fact.type !== 'scenario.progress') {
      kept.push(fact);
      continue;
    }
    const row = byId.get(fact.scenario_id!);
    if (row?.status === 'PROCESSING') kept.push(fact.tag === undefined ? { ...fact, tag: row.tag } : fact);
  }
  return kept;
}
