import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookPresence } from '../../src/webhooks/webhook-presence.js';
import { WebhooksRepository } from '../../src/store/webhooks-repository.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

describe('what is known of webhooks without a query (SQLite: one writer)', () => {
  it('may exist until a look finds none; a registration says so at once', async () => {
    let stored = false;
    const presence = new WebhookPresence({ any: async () => stored });
    expect(presence.mayExist()).toBe(true);
    await presence.refresh();
    expect(presence.mayExist()).toBe(false);
    stored = true;
    presence.registered();
    expect(presence.mayExist()).toBe(true);
  });

  it('keeps a registration made while a look was reading, whatever that look found', async () => {
    let finishLook: (found: boolean) => void = () => {};
    const presence = new WebhookPresence({ any: () => new Promise<boolean>((resolve) => (finishLook = resolve)) });
    const look = presence.refresh();
    // A webhook is stored while the look is out; the look then answers what it read before.
    presence.registered();
    finishLook(false);
    await look;
    expect(presence.mayExist()).toBe(true);
  });
});

describe.each(DIALECTS)('whether any webhook is stored, on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('is answered by the webhooks table', async () => {
    const repo = new WebhooksRepository(store().db);
    expect(await repo.any()).toBe(false);
    const sessionId = randomUUID();
    await store().sessions.insert({ id: sessionId, displayName: sessionId, createdAt: new Date().toISOString() });
    await repo.insert({ id: randomUUID(), session_id: sessionId, url: 'https://example.com/hook', events: '[]', secret: 's', created_at: new Date().toISOString() });
    expect(await repo.any()).toBe(true);
  });
});
