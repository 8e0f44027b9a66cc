import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';

interface ErrorReply {
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}

/** Specific codes through the real app: a client can act on each without reading `detail`. */
describe.each(DIALECTS)('error codes on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let s: ScenarioClient;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    s = new ScenarioClient(send, 'main');
  });
  afterAll(async () => t?.close());

  it('lists every invalid parameter at once, algorithm and data parameters alike, under PARAMETER_INVALID', async () => {
    const reply = await s.create({ tag: 'bad params', algo_name: 'Sleep', algo_params: { duration_ms: -5, nope: 1 } });
    expect(reply.status).toBe(400);
    const body = reply.body as unknown as ErrorReply;
    expect(body.code).toBe('PARAMETER_INVALID');
    expect(body.errors!.map((e) => e.path).sort()).toEqual(['algo_params.duration_ms', 'algo_params.nope']);
    for (const e of body.errors!) expect(body.detail).toContain(e.message);
    expect((await s.list()).body.some((x) => x.tag === 'bad params')).toBe(false);
  });

  it('answers the specific code of each failure, with the spec status', async () => {
    const done = await s.started({ tag: 'coded', algo_name: 'Instant' });
    await s.waitFor(done.id);
    const cases: [Promise<{ status: number; body: unknown }>, number, string][] = [
      [s.create({ tag: 'coded', algo_name: 'Instant' }), 409, 'TAG_TAKEN'],
      [s.create({ tag: 'x1', algo_name: 'Instant', dataset_key: 'nope' }), 404, 'DATASET_NOT_FOUND'],
      [s.create({ tag: 'x2', algo_name: 'Nope' }), 404, 'ALGORITHM_NOT_FOUND'],
      [s.get('nope'), 404, 'SCENARIO_NOT_FOUND'],
      [send('GET', '/sessions/nope/scenarios'), 404, 'SESSION_NOT_FOUND'],
      [send('DELETE', '/sessions/main/data/example'), 409, 'DATASET_IN_USE'],
      [s.run(done.id), 409, 'SCENARIO_STATE_CONFLICT'],
      [send('POST', `/sessions/main/scenarios/${done.id}/cancel`), 409, 'SCENARIO_STATE_CONFLICT'],
    ];
    for (const [pending, status, code] of cases) {
      const reply = await pending;
      expect([reply.status, reply.body]).toEqual([status, expect.objectContaining({ code, detail: expect.any(String) as string })]);
    }
  }, 120_000);

  it('records why a run failed: the status route and the scenario.failed event carry its code', async () => {
    const failing = await s.started({ tag: 'fails', algo_name: 'Fail', algo_params: { mode: 'raise' } });
    const status = await s.waitFor(failing.id);
    expect(status).toMatchObject({ status: 'FAILED', error_code: 'ALGORITHM_ERROR' });
    expect((await s.get(failing.id)).body.error).toMatchObject({ code: 'ALGORITHM_ERROR' });
    const db = t.runtime.services.store.db;
    const data = await until('the scenario.failed event in the log', async () => {
      const rows = await db.selectFrom('event_log').select('data').where('type', '=', 'scenario.failed').execute();
      return rows.map((r) => r.data).find((d) => d.includes(failing.id));
    });
    // The row of a scenario.failed event (its type is a column; `data` holds the event's own fields).
    expect(JSON.parse(data)).toMatchObject({ scenario_id: failing.id, code: 'ALGORITHM_ERROR' });
    // A run that did not fail carries no code.
    const fine = await s.started({ tag: 'fine', algo_name: 'Instant' });
    expect(await s.waitFor(fine.id)).not.toHaveProperty('error_code');
  }, 120_000);
});
