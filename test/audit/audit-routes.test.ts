import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/issue-token.js';
import { call, tokensOf, type SessionList } from '../auth/support.js';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

interface Entry {
  seq: number;
  at: string;
  who: { token_id: string | null; name: string };
  address: string | null;
  action: string;
  session_id: string | null;
  targets: Record<string, string>;
  status: number;
}
interface Page {
  entries: Entry[];
  next_cursor: string | null;
}

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));
const scenario = (tag: string) => ({ tag, dataset_key: 'example', algo_name: 'As-Is Slotting' });

describe.each(DIALECTS)('the audit trail over HTTP on %s', (dialect) => {
  let t: TestApp;
  let mainId: string;
  const tokens = { read: '', planner: '', admin: '', plannerId: '', adminId: '' };
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: 'token', webhook_allow_networks: ['127.0.0.0/8'] });
    const repo = tokensOf(t);
    tokens.read = (await issueToken(repo, { scope: 'read' })).token;
    const planner = await issueToken(repo, { scope: 'run', name: 'planner' });
    const admin = await issueToken(repo, { scope: 'admin', name: 'ops' });
    Object.assign(tokens, { planner: planner.token, plannerId: planner.record.id, admin: admin.token, adminId: admin.record.id });
    mainId = (await call(t.app, 'GET', '/sessions', { token: tokens.read })).json<SessionList>().default;
  });
  afterAll(() => t?.close());

  const as = (token: string) => ({
    post: (path: string, payload?: unknown) => call(t.app, 'POST', path, { token, payload: payload ?? {} }),
    patch: (path: string, payload: unknown) => call(t.app, 'PATCH', path, { token, payload }),
    delete: (path: string) => call(t.app, 'DELETE', path, { token }),
  });
  const trail = async (query = '', token = tokens.admin) => {
    const res = await call(t.app, 'GET', `/audit${query}`, { token });
    expect(res.statusCode).toBe(200);
    return res.json<Page>();
  };
  /** The newest entry of an action (entries come newest first). */
  const latest = async (action: string) => (await trail(`?action=${encodeURIComponent(action)}&limit=1`)).entries[0];

  it('records every kind of write with the token, its name, the client address, the targets and the outcome', async () => {
    const planner = as(tokens.planner);
    const admin = as(tokens.admin);
    const expectEntry = async (action: string, expected: Partial<Entry>, who = { token_id: tokens.plannerId, name: 'planner' }) => {
      const entry = await latest(action);
      expect(entry, action).toMatchObject({ action, who, address: '127.0.0.1', ...expected });
      return entry!;
    };

    const created = await planner.post('/sessions/main/scenarios', scenario('audited'));
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    await expectEntry('scenario.create', { session_id: mainId, targets: { session: mainId, scenario: id }, status: 201 });

    expect((await planner.post(`/sessions/main/scenarios/${id}/run`)).statusCode).toBe(202);
    await expectEntry('scenario.run', { targets: { session: mainId, scenario: id }, status: 202 });
    await until('the run completes', async () => (await call(t.app, 'GET', `/sessions/main/scenarios/${id}/status`, { token: tokens.read })).json<{ status: string }>().status === 'COMPLETE');
    expect((await planner.post(`/sessions/main/scenarios/${id}/reset`)).statusCode).toBe(200);
    await expectEntry('scenario.reset', { targets: { session: mainId, scenario: id }, status: 200 });

    const batch = await planner.post('/sessions/main/scenarios:run', { ids: [id] });
    expect(batch.statusCode).toBe(200);
    await expectEntry('scenario.batch-run', { targets: { session: mainId }, status: 200 });
    const cancel = await planner.post(`/sessions/main/scenarios/${id}/cancel`);
    await expectEntry('scenario.cancel', { targets: { session: mainId, scenario: id }, status: cancel.statusCode });
    await until('the cancelled run ends', async () => (await call(t.app, 'GET', `/sessions/main/scenarios/${id}/status`, { token: tokens.read })).json<{ status: string }>().status !== 'PROCESSING');
    expect((await planner.delete(`/sessions/main/scenarios/${id}`)).statusCode).toBe(204);
    await expectEntry('scenario.delete', { targets: { session: mainId, scenario: id }, status: 204 });

    expect((await planner.post('/sessions/main/data/example/derive', { new_key: 'copy' })).statusCode).toBe(201);
    await expectEntry('dataset.derive', { targets: { session: mainId, dataset: 'example', new_dataset: 'copy' }, status: 201 });
    expect((await planner.delete('/sessions/main/data/copy')).statusCode).toBe(204);
    await expectEntry('dataset.delete', { targets: { session: mainId, dataset: 'copy' }, status: 204 });

    const form = (await call(t.app, 'GET', '/sessions/main/data/example', { token: tokens.read })).json<{ key: string }>();
    const ingested = await call(t.app, 'POST', '/sessions/main/data/from-json', { token: tokens.planner, payload: { ...form, key: 'from-json' } });
    expect(ingested.statusCode).toBe(201);
    await expectEntry('dataset.ingest', { targets: { session: mainId, dataset: 'from-json' }, status: 201 });

    const { body, contentType } = multipartBody([
      { name: 'dataset_name', value: 'uploaded' },
      { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
      { name: 'files', filename: 'warehouse_layout.csv', data: sample('warehouse_layout.csv') },
    ]);
    const upload = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { authorization: `Bearer ${tokens.planner}`, 'content-type': contentType }, payload: body });
    expect(upload.statusCode).toBe(200);
    await expectEntry('dataset.upload', { targets: { session: mainId, dataset: 'uploaded' }, status: 200 });

    const experiment = await planner.post('/sessions/main/experiments', { name: 'sweep', algo_name: 'Greedy Slotting', dataset_key: 'example', axes: { 'algo_params.depot_x': [0, 5] } });
    expect(experiment.statusCode).toBe(201);
    const eid = experiment.json<{ id: string }>().id;
    await expectEntry('experiment.create', { targets: { session: mainId, experiment: eid }, status: 201 });
    expect((await planner.delete(`/sessions/main/experiments/${eid}`)).statusCode).toBe(200);
    await expectEntry('experiment.delete', { targets: { session: mainId, experiment: eid }, status: 200 });

    const hook = await planner.post('/sessions/main/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(hook.statusCode).toBe(201);
    const wid = hook.json<{ id: string }>().id;
    await expectEntry('webhook.create', { targets: { session: mainId, webhook: wid }, status: 201 });
    expect((await planner.delete(`/sessions/main/webhooks/${wid}`)).statusCode).toBe(204);
    await expectEntry('webhook.delete', { targets: { session: mainId, webhook: wid }, status: 204 });

    const adminWho = { token_id: tokens.adminId, name: 'ops' };
    const session = await admin.post('/sessions', { display_name: 'audited-session' });
    const sid = session.json<SessionList>().sessions.find((s) => s.display_name === 'audited-session')!.id;
    await expectEntry('session.create', { session_id: sid, targets: { session: sid }, status: 201 }, adminWho);
    expect((await admin.patch('/sessions/audited-session', { display_name: 'renamed' })).statusCode).toBe(200);
    await expectEntry('session.rename', { session_id: sid, targets: { session: sid }, status: 200 }, adminWho);
    const copy = await admin.post(`/sessions/${sid}/copy`, { new_display_name: 'copied' });
    const copyId = copy.json<SessionList>().sessions.find((s) => s.display_name === 'copied')!.id;
    await expectEntry('session.copy', { session_id: sid, targets: { session: sid, new_session: copyId }, status: 201 }, adminWho);
    expect((await admin.delete(`/sessions/${copyId}`)).statusCode).toBe(200);
    await expectEntry('session.delete', { session_id: copyId, targets: { session: copyId }, status: 200 }, adminWho);
  });

  it('records a refused write with its status and without the id it would have created', async () => {
    const planner = as(tokens.planner);
    expect((await planner.post('/sessions/main/scenarios', scenario('twice'))).statusCode).toBe(201);
    const before = (await call(t.app, 'GET', '/sessions/main/scenarios', { token: tokens.read })).json<unknown[]>().length;
    expect((await planner.post('/sessions/main/scenarios', scenario('twice'))).statusCode).toBe(409);
    expect((await call(t.app, 'GET', '/sessions/main/scenarios', { token: tokens.read })).json<unknown[]>().length).toBe(before);
    expect(await latest('scenario.create')).toMatchObject({ status: 409, targets: { session: mainId } });
    expect(Object.keys((await latest('scenario.create'))!.targets)).toEqual(['session']);

    // Refused by the token check before any handler: recorded as who sent it.
    expect((await as(tokens.read).post('/sessions/main/scenarios', scenario('read-only'))).statusCode).toBe(403);
    expect(await latest('scenario.create')).toMatchObject({ status: 403, who: { name: expect.any(String) }, session_id: mainId });
  });

  it('names what a branch and a report made, as the other entries name what they made', async () => {
    const planner = as(tokens.planner);
    const status = async (id: string) => (await call(t.app, 'GET', `/sessions/main/scenarios/${id}/status`, { token: tokens.read })).json<{ status: string }>().status;
    const trunk = (await planner.post('/sessions/main/scenarios', scenario('trunk'))).json<{ id: string }>().id;
    expect((await planner.post(`/sessions/main/scenarios/${trunk}/run`)).statusCode).toBe(202);
    await until('the trunk completes', async () => (await status(trunk)) === 'COMPLETE');

    const edits = [{ table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 2 } } }];
    const branched = await planner.post(`/sessions/main/scenarios/${trunk}/branch`, { tag: 'twig', edits, run: true });
    expect(branched.statusCode).toBe(201);
    const branch = branched.json<{ id: string; status: string; derived_dataset: { key: string } }>();
    expect(branch.status).toBe('QUEUED');
    const branchEntry = await latest('scenario.branch');
    expect(branchEntry).toMatchObject({ status: 201, who: { token_id: tokens.plannerId, name: 'planner' } });
    expect(branchEntry!.targets).toEqual({ session: mainId, base: trunk, scenario: branch.id, dataset: 'example', new_dataset: branch.derived_dataset.key });
    await until('the branch completes', async () => (await status(branch.id)) === 'COMPLETE');

    const plain = await planner.post(`/sessions/main/scenarios/${trunk}/branch`, { tag: 'twig without edits' });
    expect(plain.statusCode).toBe(201);
    expect((await latest('scenario.branch'))!.targets).toEqual({ session: mainId, base: trunk, scenario: plain.json<{ id: string }>().id });

    const report = await planner.post('/sessions/main/reports', { title: 'audited', ids: [trunk, branch.id] });
    expect(report.statusCode).toBe(201);
    const reportEntry = await latest('report.create');
    expect(reportEntry).toMatchObject({ status: 201, who: { token_id: tokens.plannerId, name: 'planner' } });
    expect(reportEntry!.targets).toEqual({ session: mainId, report: report.json<{ id: string }>().id });

    const published = await planner.post(`/sessions/main/scenarios/${trunk}/publish`, { note: 'audited' });
    expect(published.statusCode).toBe(201);
    expect((await latest('plan.publish'))!.targets).toEqual({ session: mainId, scenario: trunk, plan: published.json<{ id: string }>().id });
    expect((await call(t.app, 'DELETE', '/sessions/main/plan', { token: tokens.planner, payload: { note: 'done' } })).statusCode).toBe(200);
    // Two runs: a bound on a hang on a loaded machine, not a timing assertion.
  }, 180_000);

  it('records who sent a refused write whose token was valid, whatever refused it', async () => {
    const issued = await issueToken(tokensOf(t), { scope: 'read', name: 'viewer' });
    const viewer = { token_id: issued.record.id, name: 'viewer' };
    // Refused for its scope by the guard, before any handler.
    expect((await as(issued.token).post('/sessions/main/scenarios', scenario('scoped-out'))).statusCode).toBe(403);
    expect(await latest('scenario.create')).toMatchObject({ status: 403, who: viewer, session_id: mainId });

    // Refused for its session by the guard: a token bound to another session.
    const other = (await as(tokens.admin).post('/sessions', { display_name: 'elsewhere' })).json<SessionList>();
    const otherId = other.sessions.find((s) => s.display_name === 'elsewhere')!.id;
    const bound = await issueToken(tokensOf(t), { scope: 'run', name: 'bound', sessionId: otherId });
    expect((await as(bound.token).post('/sessions/main/scenarios', scenario('other-session'))).statusCode).toBe(403);
    expect(await latest('scenario.create')).toMatchObject({ status: 403, who: { token_id: bound.record.id, name: 'bound' }, session_id: mainId });

    // Refused by the handler (an unknown scenario): named as before.
    expect((await as(tokens.planner).delete('/sessions/main/scenarios/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect(await latest('scenario.delete')).toMatchObject({ status: 404, who: { token_id: tokens.plannerId, name: 'planner' } });

    // A token that is not one stays anonymous.
    expect((await as('scn_not-a-token').post('/sessions/main/scenarios', scenario('nobody'))).statusCode).toBe(401);
    expect(await latest('scenario.create')).toMatchObject({ status: 401, who: { token_id: null, name: 'anonymous' } });
  });

  it('serves a session its own trail to run tokens, newest first, filtered and paged; every session to admins only', async () => {
    expect((await call(t.app, 'GET', '/sessions/main/audit', { token: tokens.read })).statusCode).toBe(403);
    expect((await call(t.app, 'GET', '/audit', { token: tokens.planner })).statusCode).toBe(403);
    const own = await call(t.app, 'GET', '/sessions/main/audit?limit=2', { token: tokens.planner });
    expect(own.statusCode).toBe(200);
    const first = own.json<Page>();
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0]!.seq).toBeGreaterThan(first.entries[1]!.seq);
    expect(first.entries.every((e) => e.session_id === mainId)).toBe(true);
    const second = (await call(t.app, 'GET', `/sessions/main/audit?limit=2&cursor=${first.next_cursor}`, { token: tokens.planner })).json<Page>();
    expect(second.entries[0]!.seq).toBeLessThan(first.entries[1]!.seq);

    const byAction = (await call(t.app, 'GET', '/sessions/main/audit?action=dataset.derive', { token: tokens.planner })).json<Page>();
    expect(byAction.entries.length).toBeGreaterThan(0);
    expect(byAction.entries.every((e) => e.action === 'dataset.derive')).toBe(true);
    const byWho = (await trail('?who=ops')).entries;
    expect(byWho.length).toBeGreaterThan(0);
    expect(byWho.every((e) => e.who.name === 'ops')).toBe(true);
    expect((await trail(`?who=${tokens.adminId}`)).entries.map((e) => e.seq)).toEqual(byWho.map((e) => e.seq));

    const bad = await call(t.app, 'GET', '/sessions/main/audit?cursor=not-a-cursor', { token: tokens.planner });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'CURSOR_INVALID', detail: expect.stringContaining('cursor') });
  });

  it('exports the filtered trail as CSV by ?format=csv or by Accept', async () => {
    const byQuery = await call(t.app, 'GET', '/sessions/main/audit?format=csv&action=scenario.create', { token: tokens.planner });
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.headers['content-type']).toContain('text/csv');
    const lines = byQuery.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('seq,at,token_id,who,address,action,session_id,targets,status,hash,prev_hash');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes(',scenario.create,'))).toBe(true);
    const byAccept = await call(t.app, 'GET', '/sessions/main/audit?action=scenario.create', { token: tokens.planner, headers: { accept: 'text/csv' } });
    expect(byAccept.body).toBe(byQuery.body);
  });

  it('keeps one unbroken chain over everything recorded', async () => {
    const report = await t.runtime.services.audit.verify();
    expect(report.fault).toBeUndefined();
    expect(report.entries).toBeGreaterThan(15);
    expect(report.headSeq).toBe(report.entries);
  });
});
