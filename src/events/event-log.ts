import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../store/database.js';
import type { StoreDialect } from '../store/dialect.js';
import { isEventType, type EventData, type EventFacts, type LoggedEvent } from './event-types.js';

/** The PostgreSQL channel on which a commit of new events is announced (payload: `AppendNotice`). */
export const EVENTS_CHANNEL = 'scenarist_events';

/** What a commit announces: the highest id it logged, and whether it queued webhook deliveries. */
export interface AppendNotice {
  readonly lastId: number;
  readonly deliveries: number;
}

export interface AppendResult extends AppendNotice {
  readonly events: readonly LoggedEvent[];
}

/** Rows per INSERT statement (well under SQLite's bound-variable limit). */
const INSERT_CHUNK = 500;
/** Statuses in which a progress report of the scenario's run still makes sense to tell. */
const PROGRESS_STATUSES: ReadonlySet<string> = new Set(['PROCESSING', 'COMPLETE', 'FAILED']);

const toNumber = (value: number | string) => Number(value);

/**
 * The durable, bounded log of events. Ids are assigned inside the inserting transaction from the
 * counter row, which that transaction locks first: two writers on PostgreSQL take their ids one
 * after the other in commit order, so the committed ids are always a gap-free prefix and a reader
 * resuming after id n can never miss a lower id that commits later.
 */
export class EventLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}


  /**
   * Logs the events in order in one transaction, with a webhook delivery for every matching webhook
   * of their session, and (PostgreSQL) announces the commit on `EVENTS_CHANNEL`.
   */
  async append(facts: readonly EventFacts[]): Promise<AppendResult> {
    return this.db.transaction().execute(async (trx) => {
      // Lock first, by writing the counter row (PostgreSQL: its row lock; SQLite: the write lock, taken
      // before any read so two connections never deadlock upgrading): everything below, the staleness
      // check included, happens in id order.
      const locked = await trx
        .updateTable('event_counter')
        .set((eb) => ({ value: eb('value', '+', 0) }))
        .where('name', '=', 'events')
        .returning('value')
        .executeTakeFirstOrThrow();
      const current = toNumber(locked.value);
      const kept = await completed(trx, facts);
      if (kept.length === 0) return { events: [], lastId: current, deliveries: 0 };
      const lastId = current + kept.length;
      await trx.updateTable('event_counter').set({ value: lastId }).where('name', '=', 'events').execute();
      const at = new Date().toISOString();
      const events = kept.map((fact, i): LoggedEvent => {
        const { type, session_id, ...details } = fact;
        const data: EventData = { id: current + 1 + i, type, session_id, at, ...details };
        return { id: data.id, sessionId: data.session_id, type: data.type, json: JSON.stringify(data) };
      });
      for (let i = 0; i < events.length; i += INSERT_CHUNK) {
        const rows = events.slice(i, i + INSERT_CHUNK).map((e) => ({ id: e.id, session_id: e.sessionId, type: e.type, at, data: e.json }));
        await trx.insertInto('event_log').values(rows).execute();
      }
      const deliveries = await queueDeliveries(trx, events, at);
      if (this.dialect === 'postgres') {
        const notice: AppendNotice = { lastId, deliveries };
        await sql`select pg_notify(${EVENTS_CHANNEL}::text, ${JSON.stringify(notice)}::text)`.execute(trx);
      }
      return { events, lastId, deliveries };
    });
  }

  /** The id of the last committed event (0 when none was ever logged). */
  async lastId(): Promise<number> {
    const row = await this.db.selectFrom('event_counter').select('value').where('name', '=', 'events').executeTakeFirstOrThrow();
    return toNumber(row.value);
  }

  /** Every session's events with ids in (afterId, uptoId], in id order, at most `limit`. */
  async between(afterId: number, uptoId: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.db
      .selectFrom('event_log')
      .select(['id', 'session_id', 'type', 'data'])
      .where('id', '>', afterId)
      .where('id', '<=', uptoId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toLogged);
  }

  /** One session's events with ids in (afterId, uptoId], in id order, at most `limit`. */
  async ofSession(sessionId: string, afterId: number, uptoId: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.db
      .selectFrom('event_log')
      .select(['id', 'session_id', 'type', 'data'])
      .where('session_id', '=', sessionId)
      .where('id', '>', afterId)
      .where('id', '<=', uptoId)
      .orderBy('id')
      .limit(limit)
      .execute();
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

function toLogged(row: { id: number | string; session_id: string; type: string; data: string }): LoggedEvent {
  if (!isEventType(row.type)) throw new Error(`event_log row ${row.id} has an unknown type '${row.type}'`);
  return { id: toNumber(row.id), sessionId: row.session_id, type: row.type, json: row.data };
}

/**
 * Fills in scenario tags the emitter did not know and drops progress reports that are stale by the
 * time they get their id: their scenario was deleted, reset or queued again meanwhile (its event
 * already logged), so a subscriber never sees progress after the scenario's later life-cycle event.
 */
async function completed(trx: Transaction<Database>, facts: readonly EventFacts[]): Promise<EventFacts[]> {
  const asked = [...new Set(facts.filter((f) => f.scenario_id !== undefined && (f.tag === undefined || f.type === 'scenario.progress')).map((f) => f.scenario_id!))];
  if (asked.length === 0) return [...facts];
  const rows = await trx.selectFrom('scenarios').select(['id', 'tag', 'status']).where('id', 'in', asked).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept: EventFacts[] = [];
  for (const fact of facts) {
    const row = fact.scenario_id === undefined ? undefined : byId.get(fact.scenario_id);
    if (fact.type === 'scenario.progress' && !(row && PROGRESS_STATUSES.has(row.status))) continue;
    kept.push(fact.tag === undefined && row ? { ...fact, tag: row.tag } : fact);
  }
  return kept;
}

/** A pending delivery for every event a webhook of its session subscribes to. */
async function queueDeliveries(trx: Transaction<Database>, events: readonly LoggedEvent[], at: string): Promise<number> {
  const sessions = [...new Set(events.map((e) => e.sessionId))];
  const hooks = await trx.selectFrom('webhooks').select(['id', 'session_id', 'events']).where('session_id', 'in', sessions).execute();
  if (hooks.length === 0) return 0;
  const subscribed = hooks.map((h) => ({ id: h.id, sessionId: h.session_id, types: new Set(JSON.parse(h.events) as string[]) }));
  const rows = events.flatMap((event) =>
    subscribed
      .filter((h) => h.sessionId === event.sessionId && h.types.has(event.type))
      .map((h) => ({
        id: randomUUID(),
        webhook_id: h.id,
        event_id: event.id,
        event_type: event.type,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })),
  );
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('webhook_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  return rows.length;
}
