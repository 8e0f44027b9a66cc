import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailOf, injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Branch {
  id: string;
  tag: string;
  status: string;
  parent_id: string | null;
  input_data_id: string;
  algorithm: { name: string; parameters: { name: string; value: unknown }[] };
  data_parameters: Record<string, unknown>;
  derived_dataset: { key: string; parent: string; edits: { table: string; rows: number }[] } | null;
}

interface LineageNode {
  id: string;
  tag: string;
  status: string;
  parent_id: string | null;
  parent_deleted: { id: string; tag: string } | null;
  dataset_key: string;
  changes: { parameters: { name: string; from: unknown; to: unknown }[] | null; data: unknown } | null;
  children?: LineageNode[];
}

interface Lineage {
  ancestors: LineageNode[];
  scenario: LineageNode;
  descendants: LineageNode[];
  descendants_truncated: boolean;
}

const valueOf = (scenario: Branch, name: string) => scenario.algorithm.parameters.find((p) => p.name === name)?.value;

describe.each(DIALECTS)('branches and lineage on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  const branch = (id: string, body: unknown) => send('POST', `/sessions/main/scenarios/${id}/branch`, body) as Promise<Reply<Branch>>;
  const branched = async (id: string, body: unknown) => {
    const reply = await branch(id, body);
    if (reply.status !== 201) throw new Error(`branch answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const lineage = async (id: string) => {
    const reply = (await send('GET', `/sessions/main/scenarios/${id}/lineage`)) as Reply<Lineage>;
    expect(reply.status).toBe(200);
    return reply.body;
  };
  const count = async () => (await main.list()).body.length;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  it("branches a scenario with the base's algorithm and its parameters, the given ones merged over them", async () => {
    const base = await main.created({
      tag: 'merge base',
      algo_name: 'Parameter Matrix',
      algo_params: { int_param: 3, enum_param: 'blue' },
      data_params: { category: 'A', min_daily_picks: 2 },
    });
    const reply = await branch(base.id, { tag: 'merge branch', algo_params: { int_param: 9 }, data_params: { min_daily_picks: 5 } });
    expect(reply.status).toBe(201);
    const made = reply.body;
    expect(made).toMatchObject({ tag: 'merge branch', status: 'CREATED', parent_id: base.id, input_data_id: 'example', derived_dataset: null });
    expect(made.algorithm.name).toBe('Parameter Matrix');
    expect(valueOf(made, 'int_param')).toBe(9);
    expect(valueOf(made, 'enum_param')).toBe('blue');
    expect(made.data_parameters).toEqual({ category: 'A', min_daily_picks: 5 });
    // A null value asks for the default, as on create.
    const reset = await branched(base.id, { tag: 'merge default', algo_params: { enum_param: null } });
    expect(valueOf(reset, 'enum_param')).toBe('green');
    expect(valueOf(reset, 'int_param')).toBe(3);
    expect((await main.get(made.id)).body).toMatchObject({ parent_id: base.id });
    expect((await main.get(base.id)).body).toMatchObject({ parent_id: null });
  });

  it('queues the branch at once with run: true', async () => {
    const base = await main.created({ tag: 'run base', algo_name: 'Instant' });
    const made = await branched(base.id, { tag: 'run branch', run: true });
    expect(['QUEUED', 'PROCESSING', 'COMPLETE']).toContain(made.status);
    expect((await main.waitFor(made.id)).status).toBe('COMPLETE');
    expect((await main.get(base.id)).body.status).toBe('CREATED');
  });

  it('branches scenarios in any state: complete, failed, queued or processing', async () => {
    const complete = await main.started({ tag: 'any complete', algo_name: 'Instant' });
    await main.waitFor(complete.id);
    const failed = await main.started({ tag: 'any failed', algo_name: 'Fail' });
    await main.waitFor(failed.id);
    const sleeping = await main.started({ tag: 'any sleeping', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } });
    for (const base of [complete, failed, sleeping]) {
      const made = await branched(base.id, { tag: `${base.tag} / branch` });
      expect(made).toMatchObject({ parent_id: base.id, status: 'CREATED' });
    }
    expect(['QUEUED', 'PROCESSING']).toContain((await main.get(sleeping.id)).body.status);
    await send('POST', `/sessions/main/scenarios/${sleeping.id}/cancel`);
  });

  it('refuses with the codes of create, naming what is wrong, and stores nothing', async () => {
    const base = await main.created({ tag: 'refusals base', algo_name: 'Parameter Matrix' });
    const before = await count();
    const unknown = await branch('no-such-scenario', { tag: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
    const taken = await branch(base.id, { tag: 'refusals base' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'TAG_TAKEN' });
    const bad = await branch(base.id, { tag: 'bad params', algo_params: { int_param: 1000, nope: 1 }, data_params: { min_daily_picks: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'PARAMETER_INVALID' });
    const paths = (bad.body as unknown as { errors: { path: string }[] }).errors.map((e) => e.path).sort();
    expect(paths).toEqual(['algo_params.int_param', 'algo_params.nope', 'data_params.min_daily_picks']);
    const noTag = await branch(base.id, { algo_params: {} });
    expect(noTag.status).toBe(422);
    expect(detailOf(noTag)).toContain('tag');
    const wrongType = await branch(base.id, { tag: 'wrong type', run: 'yes' });
    expect(wrongType.status).toBe(422);
    expect(await count()).toBe(before);
    expect((await send('GET', '/sessions/main/data')).body).toEqual({ keys: ['example'] });
  });

  it('lists the branches of a scenario with parent=<id>, its children only, page by page', async () => {
    const root = await main.created({ tag: 'list root', algo_name: 'Instant' });
    const a = await branched(root.id, { tag: 'list a' });
    const b = await branched(root.id, { tag: 'list b' });
    await branched(a.id, { tag: 'list a1' });
    const first = (await send('GET', `/sessions/main/scenarios?parent=${root.id}&limit=1&fields=id,tag,parent_id`)) as Reply<{
      items: { id: string; tag: string; parent_id: string }[];
      next_cursor: string | null;
    }>;
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([{ id: a.id, tag: 'list a', parent_id: root.id }]);
    const second = (await send('GET', `/sessions/main/scenarios?parent=${root.id}&limit=1&fields=id&cursor=${encodeURIComponent(first.body.next_cursor!)}`)) as Reply<{
      items: { id: string }[];
      next_cursor: string | null;
    }>;
    expect(second.body).toEqual({ items: [{ id: b.id }], next_cursor: null });
    const none = (await send('GET', '/sessions/main/scenarios?parent=nobody')) as Reply<{ items: unknown[] }>;
    expect(none.body.items).toEqual([]);
  });

  it('answers the lineage: ancestors to the root, descendants as a tree, each with what it changed', async () => {
    const root = await main.created({ tag: 'tree root', algo_name: 'Sleep', algo_params: { duration_ms: 10 } });
    const a = await branched(root.id, { tag: 'tree a', algo_params: { duration_ms: 20 } });
    const b = await branched(a.id, { tag: 'tree b', data_params: { category: 'B' } });
    const c = await branched(root.id, { tag: 'tree c' });

    const ofB = await lineage(b.id);
    expect(ofB.ancestors.map((n) => n.tag)).toEqual(['tree root', 'tree a']);
    expect(ofB.ancestors[0]!.changes).toBeNull();
    expect(ofB.ancestors[1]!.changes).toEqual({ parameters: [{ name: 'duration_ms', from: 10, to: 20 }], data: null });
    expect(ofB.scenario).toEqual({
      id: b.id,
      tag: 'tree b',
      status: 'CREATED',
      parent_id: a.id,
      parent_deleted: null,
      dataset_key: 'example',
      changes: { parameters: [{ name: 'data_params.category', from: '', to: 'B' }], data: null },
    });
    expect(ofB.descendants).toEqual([]);

    const ofRoot = await lineage(root.id);
    expect(ofRoot.ancestors).toEqual([]);
    expect(ofRoot.descendants_truncated).toBe(false);
    const shape = (nodes: LineageNode[]): unknown => nodes.map((n) => ({ tag: n.tag, children: shape(n.children ?? []) }));
    expect(shape(ofRoot.descendants)).toEqual([
      { tag: 'tree a', children: [{ tag: 'tree b', children: [] }] },
      { tag: 'tree c', children: [] },
    ]);
    expect(ofRoot.descendants[1]!.changes).toEqual({ parameters: [], data: null });
    expect(c.parent_id).toBe(root.id);

    const missing = await send('GET', '/sessions/main/scenarios/nobody/lineage');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
  });

  it('keeps the branches of a deleted scenario as roots, and the lineage says which parent was deleted', async () => {
    const root = await main.created({ tag: 'del root', algo_name: 'Instant' });
    const middle = await branched(root.id, { tag: 'del middle' });
    const leaf = await branched(middle.id, { tag: 'del leaf' });
    const leaf2 = await branched(middle.id, { tag: 'del leaf 2' });
    expect((await main.delete(middle.id)).status).toBe(204);

    expect((await main.get(leaf.id)).body).toMatchObject({ parent_id: null });
    const ofLeaf = await lineage(leaf.id);
    expect(ofLeaf.ancestors).toEqual([]);
    expect(ofLeaf.scenario).toMatchObject({ parent_id: null, parent_deleted: { id: middle.id, tag: 'del middle' }, changes: { parameters: null, data: null } });
    expect((await lineage(leaf2.id)).scenario.parent_deleted).toEqual({ id: middle.id, tag: 'del middle' });
    expect((await lineage(root.id)).descendants).toEqual([]);
    // A root created as one is told apart from one made by a deletion.
    expect((await lineage(root.id)).scenario).toMatchObject({ parent_deleted: null, changes: null });
  });

  it('keeps branches through a batch delete of a parent and its child, each naming the parent it lost', async () => {
    const root = await main.created({ tag: 'batch root', algo_name: 'Instant' });
    const x = await branched(root.id, { tag: 'batch x' });
    const y = await branched(x.id, { tag: 'batch y' });
    const z = await branched(y.id, { tag: 'batch z' });
    const w = await branched(x.id, { tag: 'batch w' });
    const reply = await send('POST', '/sessions/main/scenarios:delete', { ids: [x.id, y.id] });
    expect(reply.status).toBe(200);
    expect((await lineage(z.id)).scenario).toMatchObject({ parent_id: null, parent_deleted: { id: y.id, tag: 'batch y' } });
    expect((await lineage(w.id)).scenario).toMatchObject({ parent_id: null, parent_deleted: { id: x.id, tag: 'batch x' } });
    expect((await lineage(root.id)).descendants).toEqual([]);
  });

  it('copies a session with its trees, each branch pointing to its parent’s copy', async () => {
    const root = await main.created({ tag: 'copy root', algo_name: 'Instant' });
    await branched(root.id, { tag: 'copy branch' });
    const copy = await send('POST', '/sessions/main/copy', { new_display_name: `copy ${dialect}` });
    expect(copy.status).toBe(201);
    const copied = (await new ScenarioClient(send, `copy ${dialect}`).list()).body;
    const copiedRoot = copied.find((s) => s.tag === 'copy root')!;
    const copiedBranch = copied.find((s) => s.tag === 'copy branch')!;
    expect(copiedRoot.id).not.toBe(root.id);
    expect(copiedBranch.parent_id).toBe(copiedRoot.id);
  });
});
