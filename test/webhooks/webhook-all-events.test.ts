import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/model/event-types.js';
import { webhookAllEventsMigration } from '../../src/store/migrations/0033-webhook-all-events.js';
import { widenAllEventWebhooks } from '../../src/webhooks/webhook-events.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

interface Hook {
  id: string;
  events: string[];
}

/**
 * A webhook registered without `events` gets every event type, also those a later version adds; one
 * registered with a list gets that list only. Webhooks stored before that rule (with their version's
 * full list) are upgraded by migration 0033 and the start-up widening.
 */
describe.each(DIALECTS)('webhooks of every event on %s', (dialect) => {
  let t: TestApp;
  let send: Send;

  beforeAll(async () => {
    t = await startTestApp(dialect, { webhook_allow_networks: ['127.0.0.0/8'] });
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  const db = () => t.runtime.services.store.db;
  const hooks = async () => ((await send('GET', '/sessions/main/webhooks')) as Reply<{ webhooks: Hook[] }>).body.webhooks;

  it('upgrades a webhook stored with an earlier full list to every event, keeps an explicit list, and delivers the new types to it', async () => {
    const sessionId = (await t.runtime.services.sessions.resolve('main')).id;
    const row = (id: string, events: readonly string[]) => ({ id, session_id: sessionId, url: `http://127.0.0.1:9/${id}`, events: JSON.stringify(events), secret: 's', created_at: new Date().toISOString() });
    // The default lists of earlier versions: 14 types (before plans) and 16 (before schedules); and a chosen list.
    const before14 = EVENT_TYPES.slice(0, 14);
    const before16 = EVENT_TYPES.slice(0, 16);
    expect(before14.at(-1)).toBe('experiment.completed');
    expect(before16.at(-1)).toBe('plan.withdrawn');
    const chosen = ['scenario.completed', 'scenario.failed'];
    await db().insertInto('webhooks').values([row('old-14', before14), row('old-16', before16), row('chosen', chosen)]).execute();

    await webhookAllEventsMigration.up(db() as never);
    expect(await widenAllEventWebhooks(db())).toBe(2);
    const byId = new Map((await hooks()).map((h) => [h.id, h.events]));
    expect(byId.get('old-14')).toEqual([...EVENT_TYPES]);
    expect(byId.get('old-16')).toEqual([...EVENT_TYPES]);
    expect(byId.get('chosen')).toEqual(chosen);
    // Widening again changes nothing.
    expect(await widenAllEventWebhooks(db())).toBe(0);

    // A plan published now is queued for the upgraded webhooks, not for the chosen list.
    const s = new ScenarioClient(send, 'main');
    const planned = await s.started({ tag: 'published', algo_name: 'Instant' });
    await s.waitFor(planned.id);
    expect((await send('POST', `/sessions/main/scenarios/${planned.id}/publish`, { note: 'for the webhooks' })).status).toBe(201);
    const deliveries = async (id: string) => ((await send('GET', `/sessions/main/webhooks/${id}/deliveries`)) as Reply<{ deliveries: { event_type: string }[] }>).body.deliveries.map((d) => d.event_type);
    await until('plan.published queued for the upgraded webhooks', async () => (await deliveries('old-14')).includes('plan.published') && (await deliveries('old-16')).includes('plan.published'));
    await until('the chosen list to get its scenario.completed', async () => (await deliveries('chosen')).includes('scenario.completed'));
    expect(await deliveries('chosen')).not.toContain('plan.published');
  });

  it('a webhook registered without events is stored as every event and follows new types; one with a list does not', async () => {
    const all = (await send('POST', '/sessions/main/webhooks', { url: 'http://127.0.0.1:9/all' })) as Reply<Hook>;
    const listed = (await send('POST', '/sessions/main/webhooks', { url: 'http://127.0.0.1:9/listed', events: [...EVENT_TYPES] })) as Reply<Hook>;
    expect(all.body.events).toEqual([...EVENT_TYPES]);
    expect(listed.body.events).toEqual([...EVENT_TYPES]);
    // As an older version would have stored them, then one more type became known: only the first follows.
    const shrink = (id: string, keep: (events: string[]) => string[]) =>
      db().selectFrom('webhooks').select('events').where('id', '=', id).executeTakeFirstOrThrow().then(({ events }) =>
        db().updateTable('webhooks').set({ events: JSON.stringify(keep(JSON.parse(events) as string[])) }).where('id', '=', id).execute(),
      );
    await shrink(all.body.id, (e) => e.filter((x) => x !== 'schedule.alert'));
    await shrink(listed.body.id, (e) => e.filter((x) => x !== 'schedule.alert'));
    await widenAllEventWebhooks(db());
    const byId = new Map((await hooks()).map((h) => [h.id, h.events]));
    expect(byId.get(all.body.id)).toContain('schedule.alert');
    expect(byId.get(listed.body.id)).not.toContain('schedule.alert');
  });
});
