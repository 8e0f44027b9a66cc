import type { Kysely } from 'kysely';
import { EVENT_TYPES, type EventType } from '../model/event-types.js';
import type { Database } from '../store/database.js';

/**
 * The event types a webhook receives, as stored in `webhooks.events` (a JSON array the outbox
 * matches by value, src/store/migrations/outbox/). A webhook registered without `events` wants every
 * event, also the types a later version adds: its array starts with this mark, which no event type
 * equals, and each start adds the types this version knows (`widenAllEventWebhooks`). A webhook
 * registered with a list keeps exactly that list.
 */
export const ALL_EVENTS_MARK = '*';

/** What to store for a registration: every type (marked) when none was named, else the named ones. */
export function storedEvents(named: readonly EventType[] | undefined): string {
  return JSON.stringify(named === undefined ? [ALL_EVENTS_MARK, ...EVENT_TYPES] : EVENT_TYPES.filter((t) => named.includes(t)));
}

/** The event types of a stored array, as a webhook's answer lists them (the mark aside). */
export function eventsOf(stored: string): EventType[] {
  return (JSON.parse(stored) as string[]).filter((t): t is EventType => t !== ALL_EVENTS_MARK);
}

/**
 * Adds the event types this version knows to every webhook that wants all of them. Only adds: a
 * node of an older version starting beside a newer one takes nothing away.
 */
export async function widenAllEventWebhooks(db: Kysely<Database>): Promise<number> {
  const rows = await db.selectFrom('webhooks').select(['id', 'events']).where('events', 'like', `["${ALL_EVENTS_MARK}"%`).execute();
  let widened = 0;
  for (const row of rows) {
    const stored = JSON.parse(row.events) as string[];
    const missing = EVENT_TYPES.filter((t) => !stored.includes(t));
    if (missing.length === 0) continue;
    await db.updateTable('webhooks').set({ events: JSON.stringify([...stored, ...missing]) }).where('id', '=', row.id).where('events', '=', row.events).execute();
    widened++;
  }
  return widened;
}
