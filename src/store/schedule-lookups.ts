import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * What schedules look up in other tables: the scenario or experiment an action names, and the state
 * of an action's scenarios (their queue times, the plan's successors) that tells a take-over whether
 * the action already ran.
 */

/** The scenario's id, by id or else by tag; undefined when the session has neither. */
export async function scenarioIdOf(db: Kysely<Database>, sessionId: string, idOrTag: string): Promise<string | undefined> {
  const rows = await db
    .selectFrom('scenarios')
    .select(['id'])
    .where('session_id', '=', sessionId)
    .where((eb) => eb.or([eb('id', '=', idOrTag), eb('tag', '=', idOrTag)]))
    .execute();
  return (rows.find((r) => r.id === idOrTag) ?? rows[0])?.id;
}

export async function experimentExists(db: Kysely<Database>, sessionId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('experiments').select('id').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The ids of the session's re-planned scenarios (`replans` set). */
export async function replanSuccessors(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  return (await db.selectFrom('scenarios').select('id').where('session_id', '=', sessionId).where('replans', 'is not', null).execute()).map((r) => r.id);
}

/** When each scenario (one by id, or every one of an experiment) was last queued. */
export async function queueTimes(db: Kysely<Database>, sessionId: string, of: { scenario: string } | { experiment: string }): Promise<Record<string, string | null>> {
  const query = db.selectFrom('scenarios').select(['id', 'queued_at']).where('session_id', '=', sessionId);
  const rows = await ('scenario' in of ? query.where('id', '=', of.scenario) : query.where('experiment_id', '=', of.experiment)).execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.queued_at]));
}

/** Writes a `schedule.alert` event in the caller's transaction (the outbox queues its webhooks). */
export async function logScheduleAlert(trx: Kysely<Database>, sessionId: string, details: Record<string, unknown>): Promise<void> {
  await trx.insertInto('event_outbox').values({ session_id: sessionId, type: 'schedule.alert', details: JSON.stringify(details) }).execute();
}
