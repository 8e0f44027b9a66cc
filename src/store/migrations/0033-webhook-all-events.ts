import { sql, type Kysely } from 'kysely';

/**
 * Webhooks registered without `events` before the "all events" mark (src/webhooks/webhook-events.ts)
 * stored the full list of event types of their version, so they missed every type added since
 * (`plan.published`, `schedule.alert` ...). Such a list is one of these, exactly (a list was stored
 * in this order whether given or not: one named in full reads the same, and is taken as "all" too,
 * what its author meant). This marks them; the start that follows adds the missing types.
 */
const EARLIER_DEFAULTS: readonly (readonly string[])[] = [12, 14, 16].map((n) =>
  [
    'scenario.created',
    'scenario.queued',
    'scenario.started',
    'scenario.progress',
    'scenario.completed',
    'scenario.failed',
    'scenario.reset',
    'scenario.deleted',
    'dataset.created',
    'dataset.deleted',
    'session.renamed',
    'session.deleted',
    'experiment.progress',
    'experiment.completed',
    'plan.published',
    'plan.withdrawn',
  ].slice(0, n),
);

export const webhookAllEventsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const list of EARLIER_DEFAULTS) {
      await sql`update webhooks set events = ${JSON.stringify(['*', ...list])} where events = ${JSON.stringify(list)}`.execute(db);
    }
  },
};
