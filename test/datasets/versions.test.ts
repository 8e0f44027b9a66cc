import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetCache } from '../../src/executor/run/dataset-cache.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface ErrorReply {
  code: string;
  detail: string;
}
interface VersionItem {
  version: number;
  created_at: string;
  created_by: string | null;
  current: boolean;
  tables: { name: string; rows: number; hash: string }[];
}
interface Form {
  key: string;
  kind: string;
  created_at: string;
  tables: Record<string, { columns: { name: string }[]; rows: unknown[][] }>;
}
interface StaleMark {
  dataset: string;
  from_version: number;
  to_version: number;
}
interface DatasetItem {
  key: string;
  version: number;
  parent_version: number | null;
  stale: StaleMark | null;
}

/** Done at once: a COMPLETE scenario with KPI values costs no time. */
const INSTANT = { algo_name: 'Instant' };

/** The form with every `daily_picks` value scaled: a new content for the SKU table, the rest the same. */
function scaled(form: Form, key: string, factor: number): Form {
  const tables = Object.fromEntries(
    Object.entries(form.tables).map(([name, table]) => {
      const at = table.columns.findIndex((c) => c.name === 'daily_picks');
      if (at < 0) return [name, table];
      return [name, { ...table, rows: table.rows.map((row) => row.map((cell, i) => (i === at ? Math.round((cell as number) * factor * 100) / 100 : cell))) }];
    }),
  );
  return { key, kind: 'master', created_at: form.created_at, tables };
}

describe.each(DIALECTS)('dataset versions and stale marks on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;

  beforeAll(async () => {
    // Two versions kept per key: the retention test below needs a small number.
    t = await startTestApp(dialect, { dataset_versions_kept: '2' });
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  async function session(): Promise<ScenarioClient> {
    const name = `versions ${++n}`;
    expect((await send('POST', '/sessions/main/copy', { new_display_name: name })).status).toBe(201);
    return new ScenarioClient(send, name);
  }
  const complete = async (s: ScenarioClient, tag: string, dataset = 'example') => {
    const started = await s.started({ tag, dataset_key: dataset, ...INSTANT });
    expect((await s.waitFor(started.id)).status).toBe('COMPLETE');
    return started.id;
  };
  const form = async (s: ScenarioClient, key: string, query = '') => (await send('GET', `/sessions/${s.sid}/data/${key}${query}`)) as Reply<Form & ErrorReply>;
  const store = async (s: ScenarioClient, body: Form) => {
    const reply = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${s.sid}/data/from-json`, headers: { 'content-type': 'application/json' }, payload: body as object });
    expect(reply.statusCode).toBe(201);
  };
  const versions = async (s: ScenarioClient, key: string) => (await send('GET', `/sessions/${s.sid}/data/${key}/versions`)) as Reply<{ versions: VersionItem[] } & ErrorReply>;
  const codeOf = (reply: Reply) => [reply.status, (reply.body as ErrorReply | undefined)?.code];

  it('keeps the replaced content as a version, lists versions newest first, and reads an old one and its export', async () => {
    const s = await session();
    const original = (await form(s, 'example')).body;
    const first = (await versions(s, 'example')).body.versions;
    expect(first.map((v) => [v.version, v.current])).toEqual([[1, true]]);

    await store(s, scaled(original, 'example', 2));
    const listed = (await versions(s, 'example')).body.versions;
    expect(listed.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    // Who wrote it, as the audit trail names the writer (authentication off: local).
    expect(listed[0]!.created_by).toBe('local');
    expect(listed[0]!.tables.map((table) => table.name)).toEqual(first[0]!.tables.map((table) => table.name));
    // The SKU table changed, the layout did not: same hash for the untouched table, row counts kept.
    const changed = listed[0]!.tables.filter((table, i) => table.hash !== listed[1]!.tables[i]!.hash);
    expect(changed).toHaveLength(1);
    expect(listed[0]!.tables.map((table) => table.rows)).toEqual(listed[1]!.tables.map((table) => table.rows));

    const old = await form(s, 'example', '?version=1');
    expect(old.status).toBe(200);
    expect(old.body.tables).toEqual(original.tables);
    expect((await form(s, 'example')).body.tables).not.toEqual(original.tables);
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/${s.sid}/data/example?version=1&format=csv&table=${changed[0]!.name}` });
    expect(csv.statusCode).toBe(200);
    const currentCsv = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/${s.sid}/data/example?format=csv&table=${changed[0]!.name}` });
    expect(csv.body).not.toEqual(currentCsv.body);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/${s.sid}/data/example?version=1&format=xlsx` });
    expect(xlsx.statusCode).toBe(200);
  });

  it('refuses an unknown version with 404 and a bad one with 400, and stores nothing', async () => {
    const s = await session();
    const before = (await versions(s, 'example')).body;
    const missing = await form(s, 'example', '?version=7');
    expect(codeOf(missing)).toEqual([404, 'DATASET_VERSION_NOT_FOUND']);
    expect(missing.body.detail).toContain('version 7');
    expect(codeOf(await form(s, 'example', '?version=7&format=csv'))).toEqual([404, 'DATASET_VERSION_NOT_FOUND']);
    for (const bad of ['abc', '0', '-1', '1.5']) expect(codeOf(await form(s, 'example', `?version=${bad}`))).toEqual([400, 'QUERY_INVALID']);
    expect(codeOf(await form(s, 'nope', '?version=1'))).toEqual([404, 'DATASET_NOT_FOUND']);
    expect(codeOf(await versions(s, 'nope'))).toEqual([404, 'DATASET_NOT_FOUND']);
    expect((await versions(s, 'example')).body).toEqual(before);
  });

  it('records the versions scenarios were created and computed on, and marks them stale when their data moved', async () => {
    const s = await session();
    const a = await complete(s, 'a');
    expect((await s.get(a)).body).toMatchObject({ dataset_version: 1, result_dataset_version: 1, stale: null });
    expect((await send('POST', `/sessions/${s.sid}/data/example/derive`, { new_key: 'whatif' })).status).toBe(201);
    const onWhatif = await complete(s, 'on what-if', 'whatif');

    await store(s, scaled((await form(s, 'example')).body, 'example', 3));
    const moved = { dataset: 'example', from_version: 1, to_version: 2 };
    expect((await s.get(a)).body).toMatchObject({ dataset_version: 1, result_dataset_version: 1, stale: moved });
    // Its own dataset did not move, its parent did: the nearest dataset that moved is named.
    expect((await s.get(onWhatif)).body.stale).toEqual(moved);
    const list = (await s.list()).body;
    expect(list.find((x) => x.id === a)!.stale).toEqual(moved);
    const page = (await send('GET', `/sessions/${s.sid}/scenarios?fields=id,stale,dataset_version`)) as Reply<{ items: { id: string; stale: StaleMark | null }[] }>;
    expect(page.body.items.find((x) => x.id === a)).toEqual({ id: a, stale: moved, dataset_version: 1 });

    // Created now: on the current version, not stale; rerun, the old one follows the data.
    const created = await s.create({ tag: 'b', ...INSTANT });
    expect(created.body).toMatchObject({ dataset_version: 2, stale: null });
    expect((await s.reset(a)).body).toMatchObject({ dataset_version: 2, result_dataset_version: null, stale: null });
    expect((await s.run(a)).status).toBe(202);
    expect((await s.waitFor(a)).status).toBe('COMPLETE');
    expect((await s.get(a)).body).toMatchObject({ dataset_version: 2, result_dataset_version: 2, stale: null });

    // Derived datasets: list items and lineage carry their versions and mark.
    const derived = (await send('GET', `/sessions/${s.sid}/data?kind=derived`)) as Reply<{ items: DatasetItem[] }>;
    expect(derived.body.items.find((d) => d.key === 'whatif')).toMatchObject({ version: 1, parent_version: 1, stale: moved });
    const master = (await send('GET', `/sessions/${s.sid}/data?kind=master`)) as Reply<{ items: DatasetItem[] }>;
    expect(master.body.items.find((d) => d.key === 'example')).toMatchObject({ version: 2, parent_version: null, stale: null });
    expect((await send('GET', `/sessions/${s.sid}/data/whatif/lineage`)).body).toMatchObject({ parent: 'example', version: 1, parent_version: 1, stale: moved });
    // Derived again from the new data: current.
    expect((await send('POST', `/sessions/${s.sid}/data/example/derive`, { new_key: 'whatif2' })).status).toBe(201);
    expect((await send('GET', `/sessions/${s.sid}/data/whatif2/lineage`)).body).toMatchObject({ version: 1, parent_version: 2, stale: null });
  });

  it("lets new data replace the plan's dataset, the plan keeping (and protecting) the version it was computed on", async () => {
    const s = await session();
    const id = await complete(s, 'plan');
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${id}/publish`, { note: 'week 49' })).body).toMatchObject({ dataset_version: 1, stale: null });
    await store(s, scaled((await form(s, 'example')).body, 'example', 1.5));
    const plan = (await send('GET', `/sessions/${s.sid}/plan`)) as Reply<{ current: { dataset_version: number; stale: StaleMark | null } }>;
    expect(plan.body.current).toMatchObject({ dataset_version: 1, stale: { dataset: 'example', from_version: 1, to_version: 2 } });
    expect(codeOf(await send('DELETE', `/sessions/${s.sid}/data/example`))).toEqual([409, 'PLAN_DATASET_PROTECTED']);
    // Two more versions with two kept: version 1 is beyond them, yet the plan (and its scenario) keep it.
    await store(s, scaled((await form(s, 'example')).body, 'example', 1.5));
    await store(s, scaled((await form(s, 'example')).body, 'example', 1.5));
    expect((await versions(s, 'example')).body.versions.map((v) => v.version)).toEqual([4, 3, 1]);
    expect((await form(s, 'example', '?version=1')).status).toBe(200);
    // The store itself refuses to drop the plan's version.
    const { store: db } = t.runtime.services;
    const sessionId = (await t.runtime.services.sessions.resolve(s.sid)).id;
    const refused = await db.db
      .deleteFrom('dataset_versions')
      .where('session_id', '=', sessionId)
      .where('key', '=', 'example')
      .where('version_no', '=', 1)
      .execute()
      .then(
        () => undefined,
        (err: unknown) => (err as Error).message,
      );
    expect(refused).toContain('scenarist_plan_protected:dataset');
  });

  it('prunes the oldest versions beyond the retention setting, only unused ones, and collects their contents', async () => {
    const s = await session();
    const base = (await form(s, 'example')).body;
    await store(s, scaled(base, 'spare', 5));
    const unique = (await versions(s, 'spare')).body.versions[0]!.tables.map((table) => table.hash);
    const used = await complete(s, 'on spare v1', 'spare');
    await store(s, scaled(base, 'spare', 6));
    await store(s, scaled(base, 'spare', 7));
    // Version 1 is beyond the two kept, but a scenario's result was computed on it.
    expect((await versions(s, 'spare')).body.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await s.delete(used)).status).toBe(204);
    await store(s, scaled(base, 'spare', 8));
    // Unused now: versions 1 and 2 go at the next write, with the contents only they named.
    expect((await versions(s, 'spare')).body.versions.map((v) => v.version)).toEqual([4, 3]);
    expect(codeOf(await form(s, 'spare', '?version=1'))).toEqual([404, 'DATASET_VERSION_NOT_FOUND']);
    const { store: db } = t.runtime.services;
    const left = await db.db.selectFrom('table_contents').select('hash').where('hash', 'in', unique).execute();
    // The layout table is the same in every version (and in example): only version 1's SKU content went.
    expect(unique).toHaveLength(2);
    expect(left).toHaveLength(1);
  });

  it('has a run read the version its claim recorded, even when the dataset was replaced since', async () => {
    const s = await session();
    const original = (await form(s, 'example')).body;
    const id = await complete(s, 'pinned');
    await store(s, scaled(original, 'example', 4));
    const { store: db } = t.runtime.services;
    const sessionId = (await t.runtime.services.sessions.resolve(s.sid)).id;
    // As a claim before the replacement left it: version 1 recorded, version 2 current.
    expect((await s.get(id)).body.result_dataset_version).toBe(1);
    const cache = new DatasetCache(db.datasets);
    const read = await cache.load(sessionId, 'example', id);
    expect(read.tables).toEqual(original.tables);
    expect(JSON.parse(await cache.loadTablesJson(sessionId, 'example', id))).toEqual(original.tables);
    // Without a run, the current version.
    expect((await cache.load(sessionId, 'example')).tables).not.toEqual(original.tables);
  });
});
