import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface BatchBody {
  changed: number;
  skipped: number;
  changed_ids: string[];
  skipped_ids: string[];
}

const LONG = { algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } };

describe.each(DIALECTS)('batch actions on scenarios on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  let n = 0;
  const batch = (action: string, body: unknown) => send('POST', `/sessions/main/scenarios:${action}`, body) as Promise<Reply<BatchBody>>;
  const make = async (count: number, body: object = LONG) => {
    const prefix = `batch ${++n}`;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await main.created({ tag: `${prefix}/${i}`, ...body })).id);
    return { prefix, ids };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  it('runs the listed scenarios, skipping unknown ids and those whose status forbids it', async () => {
    const { ids } = await make(3);
    await main.run(ids[0]!);
    const reply = await batch('run', { ids: [...ids, 'no-such-id'] });
    expect(reply.status).toBe(200);
    expect(reply.body.changed_ids.sort()).toEqual([ids[1], ids[2]].sort());
    expect(reply.body.skipped_ids.sort()).toEqual([ids[0], 'no-such-id'].sort());
    expect(reply.body).toMatchObject({ changed: 2, skipped: 2 });
    expect((await batch('cancel', { ids })).body.changed).toBe(3);
  });

  it('acts on every scenario the filter matches (tag substring and status)', async () => {
    const { prefix, ids } = await make(4);
    await main.run(ids[0]!);
    const reply = await batch('delete', { filter: { q: prefix, status: 'CREATED' } });
    expect(reply.body).toMatchObject({ changed: 3, skipped: 0 });
    expect((await main.get(ids[0]!)).status).toBe(200);
    for (const id of ids.slice(1)) expect((await main.get(id)).status).toBe(404);
    await batch('cancel', { ids: [ids[0]] });
  });

  it('resets finished scenarios and deletes queued ones, which never run afterwards', async () => {
    const { ids } = await make(2, { algo_name: 'Instant' });
    await batch('run', { ids });
    for (const id of ids) await main.waitFor(id);
    const reset = await batch('reset', { ids });
    expect(reset.body.changed).toBe(2);
    for (const id of ids) expect((await main.get(id)).body).toMatchObject({ status: 'CREATED', result: null });
    const queued = await make(3);
    await batch('run', { ids: queued.ids });
    expect((await batch('delete', { ids: queued.ids })).body.changed).toBe(3);
    expect((await main.processing()).body).toBeNull();
  });

  it('refuses a body that is neither ids nor filter with 422, and an unknown session with 404', async () => {
    expect((await batch('run', { everything: true })).status).toBe(422);
    expect((await batch('run', { filter: { colour: 'red' } })).status).toBe(422);
    expect((await send('POST', '/sessions/nope/scenarios:run', { ids: [] })).status).toBe(404);
  });

  it('has exactly one winner per scenario when a batch races single actions', async () => {
    const { ids } = await make(20);
    const singles = ids.map((id) => main.run(id));
    const [batchReply, ...singleReplies] = await Promise.all([batch('run', { ids }), ...singles]);
    const singleWinners = singleReplies.filter((r) => r.status === 202).length;
    expect(singleReplies.every((r) => r.status === 202 || r.status === 409)).toBe(true);
    expect(batchReply.body.changed + singleWinners).toBe(ids.length);
    expect(batchReply.body.changed + batchReply.body.skipped).toBe(ids.length);
    // Cancel races the same way: each scenario is cancelled once.
    const cancels = ids.map((id) => send('POST', `/sessions/main/scenarios/${id}/cancel`));
    const [batchCancel, ...singleCancels] = await Promise.all([batch('cancel', { ids }), ...cancels]);
    const cancelWinners = singleCancels.filter((r) => r.status === 200).length;
    expect(batchCancel.body.changed + cancelWinners).toBe(ids.length);
  });
});
