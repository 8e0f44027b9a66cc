import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Compare {
  baseline: string;
  inputs: { scenario_id: string; parameters: { name: string; from: unknown; to: unknown }[]; data: Record<string, unknown> | null }[];
}

interface JsonForm {
  key: string;
  kind: string;
  tables: Record<string, { columns: { name: string }[]; rows: unknown[][] }>;
}

describe.each(DIALECTS)("compare's inputs and baseline on %s", (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  const compare = async (query: string) => {
    const reply = (await send('GET', `/sessions/main/compare?${query}`)) as Reply<Compare>;
    expect(reply.status).toBe(200);
    return reply.body;
  };
  const branched = async (id: string, body: unknown) => {
    const reply = (await send('POST', `/sessions/main/scenarios/${id}/branch`, body)) as Reply<{ id: string }>;
    if (reply.status !== 201) throw new Error(`branch answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  it('measures branches against their parent when no baseline is given, and keeps a given baseline', async () => {
    const root = await main.created({ tag: 'family root', algo_name: 'Sleep', algo_params: { duration_ms: 10 } });
    const a = await branched(root.id, { tag: 'family a', algo_params: { duration_ms: 30 } });
    const b = await branched(root.id, { tag: 'family b', data_params: { category: 'pet' } });

    const byParent = await compare(`ids=${a.id},${root.id},${b.id}`);
    expect(byParent.baseline).toBe(root.id);
    expect(byParent.inputs).toEqual([
      { scenario_id: a.id, parameters: [{ name: 'duration_ms', from: 10, to: 30 }], data: null },
      { scenario_id: b.id, parameters: [{ name: 'data_params.category', from: '', to: 'pet' }], data: null },
    ]);
    const given = await compare(`ids=${a.id},${root.id},${b.id}&baseline=${b.id}`);
    expect(given.baseline).toBe(b.id);
    expect(given.inputs.map((i) => i.scenario_id)).toEqual([a.id, root.id]);
    // Not one parent and its branches: the first id, as the spec says.
    const unrelated = await main.created({ tag: 'family stranger', algo_name: 'Instant' });
    const mixed = await compare(`ids=${a.id},${root.id},${unrelated.id}`);
    expect(mixed.baseline).toBe(a.id);
    expect(mixed.inputs.find((i) => i.scenario_id === unrelated.id)!.parameters[0]).toEqual({ name: 'algorithm', from: 'Sleep', to: 'Instant' });
  });

  it('summarises unrelated datasets of one schema table by table, matched by primary key, with example rows', async () => {
    const form = (await send('GET', '/sessions/main/data/example')).body as JsonForm;
    const skus = form.tables.sku_data!;
    const at = (name: string) => skus.columns.findIndex((c) => c.name === name);
    const rows = skus.rows.map((row) => [...row]);
    const removed = rows.shift()!;
    rows[0]![at('daily_picks')] = 999.5;
    const added = [...rows[1]!];
    added[at('sku')] = 'SKU-NEW';
    rows.push(added);
    const other = { ...form, key: 'other data', tables: { ...form.tables, sku_data: { ...skus, rows } } };
    expect((await send('POST', '/sessions/main/data/from-json', other)).status).toBe(201);

    const base = await main.created({ tag: 'on example', algo_name: 'Instant' });
    const onOther = await main.created({ tag: 'on other', algo_name: 'Instant', dataset_key: 'other data' });
    const result = await compare(`ids=${base.id},${onOther.id}`);
    expect(result.inputs).toHaveLength(1);
    const data = result.inputs[0]!.data as { relation: string; from: string; to: string; tables: Record<string, unknown>[] };
    expect(data).toMatchObject({ relation: 'unrelated', from: 'example', to: 'other data' });
    const [skuDiff, layoutDiff] = data.tables;
    expect(skuDiff).toMatchObject({
      table: 'sku_data',
      status: 'compared',
      key: ['sku'],
      rows_added: 1,
      rows_removed: 1,
      rows_changed: 1,
      rows_unchanged: skus.rows.length - 2,
      changed: [{ key: { sku: rows[0]![at('sku')] }, changes: { daily_picks: { from: skus.rows[1]![at('daily_picks')], to: 999.5 } } }],
    });
    expect((skuDiff!.removed as Record<string, unknown>[])[0]).toMatchObject({ sku: removed[at('sku')] });
    expect((skuDiff!.added as Record<string, unknown>[])[0]).toMatchObject({ sku: 'SKU-NEW' });
    expect(layoutDiff).toMatchObject({ table: 'warehouse_layout', status: 'compared', rows_added: 0, rows_removed: 0, rows_changed: 0 });
  });
});
