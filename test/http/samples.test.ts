import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SAMPLE_FILES = ['sku_data.csv', 'warehouse_layout.csv'];
const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));

interface Etl {
  dataset_name: string;
  success: boolean;
  keys: string[];
  messages: unknown[];
}

describe.each(DIALECTS)('the domain’s sample data on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'fresh' } })).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  const load = (body: unknown, session = 'fresh') => t.app.inject({ method: 'POST', url: `/api/v1/sessions/${session}/samples/load`, payload: body as object });
  const datasets = async () => (await t.app.inject({ url: '/api/v1/sessions/fresh/data' })).json<{ keys: string[] }>().keys;

  it('lists the example’s sample: its dataset name and its files', async () => {
    const res = await t.app.inject({ url: '/api/v1/sessions/fresh/samples' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [{ dataset_name: 'example', files: ['sku_data.csv', 'warehouse_layout.csv'] }] });
  });

  it('loads it through the ETL under its own name, as an upload of its files would', async () => {
    expect(await datasets()).toEqual([]);
    const res = await load({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Etl>()).toMatchObject({ dataset_name: 'example', success: true, keys: ['example'] });
    expect(await datasets()).toEqual(['example']);
    // The same tables as an upload of the same files gives.
    const { body, contentType } = multipartBody([
      { name: 'dataset_name', value: 'uploaded' },
      ...SAMPLE_FILES.map((name) => ({ name: 'files', filename: name, data: sample(name) })),
    ]);
    const upload = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/fresh/etl', headers: { 'content-type': contentType }, payload: body });
    expect(upload.json<Etl>().success, upload.body).toBe(true);
    const tablesOf = async (key: string) => (await t.app.inject({ url: `/api/v1/sessions/fresh/data/${key}` })).json<{ tables: Record<string, unknown[]> }>().tables;
    const loaded = await tablesOf('example');
    expect(loaded).toEqual(await tablesOf('uploaded'));
    expect(Object.keys(loaded).sort()).toEqual(['sku_data', 'warehouse_layout']);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/sessions/fresh/data/uploaded' })).statusCode).toBe(204);
    // Recorded as its own action, naming the dataset it filled.
    const audit = (await t.app.inject({ url: '/api/v1/sessions/fresh/audit?action=dataset.load-sample' })).json<{ entries: { targets: Record<string, string>; status: number }[] }>();
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0]).toMatchObject({ targets: { dataset: 'example' }, status: 200 });
  });

  it('loads it under another name when asked, and again over a dataset of that name', async () => {
    for (let n = 0; n < 2; n++) {
      const res = await load({ dataset_name: 'trial' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Etl>()).toMatchObject({ dataset_name: 'trial', success: true, keys: ['trial'] });
    }
    expect((await datasets()).sort()).toEqual(['example', 'trial']);
  });

  it('refuses a name a dataset cannot have, and a field it does not know, storing nothing', async () => {
    for (const body of [{ dataset_name: '' }, { dataset_name: 'x'.repeat(1000) }, { name: 'x' }]) {
      const res = await load(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json<{ code: string; detail: string }>().code).toBe('INVALID_REQUEST');
    }
    expect((await datasets()).sort()).toEqual(['example', 'trial']);
  });

  it('answers SESSION_NOT_FOUND for an unknown session', async () => {
    const res = await load({}, 'nowhere');
    expect(res.statusCode).toBe(404);
    expect(res.json<{ code: string }>().code).toBe('SESSION_NOT_FOUND');
  });
});

describe.each(DIALECTS)('a domain without sample data on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { domain: TEST_DOMAIN });
  });
  afterAll(() => t?.close());

  it('lists none, and refuses a load with NOT_FOUND saying why', async () => {
    expect((await t.app.inject({ url: '/api/v1/sessions/main/samples' })).json()).toEqual({ items: [] });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/samples/load', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', detail: expect.stringMatching(/ships no sample data/) });
  });
});
