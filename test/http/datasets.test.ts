import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));

describe.each(DIALECTS)('dataset routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1/sessions/main${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const rawPost = (url: string, body: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: `/api/v1/sessions/main${url}`, headers: { 'content-type': contentType }, payload: body });
  const etl = (parts: Parameters<typeof multipartBody>[0]) => {
    const { body, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': contentType }, payload: body });
  };
  const keys = async () => (await api('GET', '/data')).json<{ keys: string[] }>().keys;

  it('lists the seeded example dataset of main', async () => {
    expect(await keys()).toEqual(['example']);
  });

  it('returns the default JSON form with typed tables', async () => {
    const res = await api('GET', '/data/example');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const form = res.json();
    expect(form).toMatchObject({ key: 'example', kind: 'master' });
    expect(Date.parse(form.created_at)).not.toBeNaN();
    expect(Object.keys(form.tables).sort()).toEqual(['sku_data', 'warehouse_layout']);
    const skus = form.tables.sku_data;
    expect(skus.columns.length).toBeGreaterThan(0);
    expect(skus.rows.length).toBeGreaterThan(0);
    expect(skus.rows[0]).toHaveLength(skus.columns.length);
  });

  it('round-trips the JSON form through from-json into another session unchanged', async () => {
    const form = (await api('GET', '/data/example')).body;
    await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'other' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sessions/other/data/from-json',
      headers: { 'content-type': 'application/json' },
      payload: form,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ keys: ['example'] });
    const copy = await t.app.inject({ method: 'GET', url: '/api/v1/sessions/other/data/example' });
    expect(copy.json()).toEqual(JSON.parse(form));
  });

  it('replaces a dataset when from-json carries an existing key', async () => {
    const form = (await api('GET', '/data/example')).json();
    const smaller = { ...form, key: 'replace-me', tables: { t: { columns: [{ name: 'a', type: 'integer' }], rows: [[1]] } } };
    expect((await rawPost('/data/from-json', JSON.stringify(smaller))).statusCode).toBe(201);
    smaller.tables.t.rows = [[2], [3]];
    expect((await rawPost('/data/from-json', JSON.stringify(smaller))).statusCode).toBe(201);
    expect((await api('GET', '/data/replace-me')).json().tables.t.rows).toEqual([[2], [3]]);
    expect(await keys()).toEqual(['example', 'replace-me']);
  });

  it.each([
    ['an empty body', ''],
    ['malformed JSON', '{"key": '],
    ['an empty array', '[]'],
    ['an empty object', '{}'],
    ['null', 'null'],
    ['a number', '42'],
    ['rows of the wrong width', JSON.stringify({ key: 'w', tables: { t: { columns: [{ name: 'a', type: 'integer' }], rows: [[1, 2]] } } })],
    ['a cell of the wrong type', JSON.stringify({ key: 'w', tables: { t: { columns: [{ name: 'a', type: 'integer' }], rows: [['x']] } } })],
    ['an unknown column type', JSON.stringify({ key: 'w', tables: { t: { columns: [{ name: 'a', type: 'blob' }], rows: [] } } })],
  ])('answers from-json with %s by 400 and stores nothing', async (_label, body) => {
    const before = await keys();
    const res = await rawPost('/data/from-json', body);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().detail).toBe('string');
    expect(await keys()).toEqual(before);
  });

  it('answers 20 MB of valid JSON with the wrong shape by 400', async () => {
    const big = JSON.stringify({ items: Array.from({ length: 400_000 }, (_, i) => ({ index: i, pad: 'abcdefghijklmnopqrstuvwxyz01' })) });
    expect(big.length).toBeGreaterThan(20_000_000);
    const res = await rawPost('/data/from-json', big);
    expect(res.statusCode).toBe(400);
  });

  it('accepts keys with slashes, dots and unicode as opaque strings, addressed over real HTTP', async () => {
    // WHATWG URL parsing (inject, fetch) resolves `%2E%2E` segments, so the raw path is sent with node:http.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const rawRequest = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { hostname, port } = new URL(address);
        const req = request({ hostname, port, path, method }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const key of ['a/b', '..', '../../etc/passwd', 'Zürich 倉庫 📦']) {
      const body = JSON.stringify({ key, tables: { t: { columns: [{ name: 'a', type: 'string' }], rows: [['x']] } } });
      expect((await rawPost('/data/from-json', body)).statusCode, key).toBe(201);
      const path = `/api/v1/sessions/main/data/${encodeURIComponent(key).replaceAll('.', '%2E')}`;
      const res = await rawRequest('GET', path);
      expect(res.status, key).toBe(200);
      expect(JSON.parse(res.body).key).toBe(key);
      expect((await rawRequest('DELETE', path)).status, key).toBe(204);
    }
    expect((await rawRequest('GET', '/api/v1/sessions/%2e%2e/data')).status).toBe(404);
  });

  it('derives an independent copy marked derived', async () => {
    const res = await api('POST', '/data/example/derive', { new_key: 'example copy' });
    expect(res.statusCode).toBe(201);
    expect(res.json().keys).toContain('example copy');
    const derived = (await api('GET', '/data/example%20copy')).json();
    const original = (await api('GET', '/data/example')).json();
    expect(derived.kind).toBe('derived');
    expect(derived.key).toBe('example copy');
    expect(derived.tables).toEqual(original.tables);
  });

  it('answers derive with 409 for an existing key, 404 for an unknown source and 422 for a bad body', async () => {
    expect((await api('POST', '/data/example/derive', { new_key: 'example copy' })).statusCode).toBe(409);
    expect((await api('POST', '/data/nope/derive', { new_key: 'fresh' })).statusCode).toBe(404);
    expect((await api('POST', '/data/example/derive', { new_key: '' })).statusCode).toBe(422);
    expect((await api('POST', '/data/example/derive', {})).statusCode).toBe(422);
    expect((await api('POST', '/data/example/derive', { new_key: 7 })).statusCode).toBe(422);
  });

  it('describes the data parameters of a dataset and 404s for an unknown key', async () => {
    const res = await api('GET', '/data/example/parameters');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.name).toBe('example');
    expect(Array.isArray(body.parameters)).toBe(true);
    expect(body.parameters.length).toBeGreaterThan(0);
    for (const p of body.parameters) expect(p).toHaveProperty('type');
    expect((await api('GET', '/data/nope/parameters')).statusCode).toBe(404);
  });

  it('deletes a dataset with 204 and then 404s', async () => {
    expect((await api('DELETE', '/data/example%20copy')).statusCode).toBe(204);
    expect((await api('DELETE', '/data/example%20copy')).statusCode).toBe(404);
    expect((await api('GET', '/data/example%20copy')).statusCode).toBe(404);
  });

  it('uploads the sample files through the ETL pipeline into a dataset', async () => {
    const res = await etl([
      { name: 'dataset_name', value: 'uploaded' },
      { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
      { name: 'files', filename: 'WAREHOUSE_LAYOUT.CSV'.replace('WAREHOUSE_LAYOUT', 'warehouse_layout'), data: sample('warehouse_layout.csv') },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dataset_name: 'uploaded', success: true, keys: ['uploaded'] });
    expect(Array.isArray(body.messages)).toBe(true);
    expect((await api('GET', '/data/uploaded')).json().tables).toEqual((await api('GET', '/data/example')).json().tables);
  });

  it('reports validation errors with success false and keeps the existing dataset', async () => {
    const before = (await api('GET', '/data/uploaded')).body;
    const bad = Buffer.from('sku;category;daily_picks\nA;x;not-a-number\n');
    const res = await etl([
      { name: 'dataset_name', value: 'uploaded' },
      { name: 'files', filename: 'sku_data.csv', data: bad },
      { name: 'files', filename: 'warehouse_layout.csv', data: sample('warehouse_layout.csv') },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.keys).toEqual([]);
    expect(body.messages.some((m: { severity: string }) => m.severity === 'error')).toBe(true);
    expect((await api('GET', '/data/uploaded')).body).toBe(before);
  });

  it.each([
    ['no files', [{ name: 'dataset_name', value: 'x' }], 400],
    ['an unsupported extension', [{ name: 'dataset_name', value: 'x' }, { name: 'files', filename: 'sku_data.txt', data: Buffer.from('a') }], 400],
    ['two files for one group', [
      { name: 'dataset_name', value: 'x' },
      { name: 'files', filename: 'sku_data.csv', data: Buffer.from('a\n1\n') },
      { name: 'files', filename: 'sku_data.json', data: Buffer.from('[]') },
    ], 400],
    ['a missing dataset_name', [{ name: 'files', filename: 'sku_data.csv', data: Buffer.from('a\n1\n') }], 422],
    ['an empty dataset_name', [{ name: 'dataset_name', value: '' }, { name: 'files', filename: 'sku_data.csv', data: Buffer.from('a\n1\n') }], 422],
    ['binary garbage named .csv', [{ name: 'dataset_name', value: 'x' }, { name: 'files', filename: 'sku_data.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x9c, 0x00, 0xc3]) }], 400],
    ['an xlsx that is not a zip', [{ name: 'dataset_name', value: 'x' }, { name: 'files', filename: 'sku_data.xlsx', data: Buffer.from('hello') }], 400],
    ['an empty file', [{ name: 'dataset_name', value: 'x' }, { name: 'files', filename: 'sku_data.csv', data: Buffer.alloc(0) }], 400],
  ] as const)('answers an upload with %s by its 4xx and stores nothing', async (_label, parts, status) => {
    const before = await keys();
    const res = await etl(parts as unknown as Parameters<typeof multipartBody>[0]);
    expect(res.statusCode).toBe(status);
    expect(typeof res.json().detail).toBe('string');
    expect(await keys()).toEqual(before);
  });

  it('names an unusable dataset_name in errors as every 422 names its field: the path, and what the value must be', async () => {
    const res = await etl([{ name: 'dataset_name', value: 'x'.repeat(201) }, { name: 'files', filename: 'sku_data.csv', data: Buffer.from('a\n1\n') }]);
    expect(res.statusCode).toBe(422);
    const body = res.json<{ code: string; detail: string; errors: { path: string; message: string }[] }>();
    expect(body.code).toBe('INVALID_REQUEST');
    expect(body.detail).toMatch(/^dataset_name must be 1\.\.200 characters.*\(got 201 characters\)$/);
    expect(body.errors).toEqual([{ path: 'dataset_name', message: expect.stringMatching(/^must be 1\.\.200 characters/) }]);
  });

  it('answers a non-multipart ETL request with a 4xx', async () => {

    const res = await rawPost('/etl', '{}');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('answers every dataset route for an unknown session with 404', async () => {
    for (const [method, url] of [
      ['GET', '/sessions/nope/data'],
      ['GET', '/sessions/nope/data/example'],
      ['DELETE', '/sessions/nope/data/example'],
      ['POST', '/sessions/nope/data/example/derive'],
      ['GET', '/sessions/nope/data/example/parameters'],
    ] as const) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, ...(method === 'POST' ? { payload: { new_key: 'z' } } : {}) });
      expect(res.statusCode, url).toBe(404);
    }
    const fromJson = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/nope/data/from-json', payload: { key: 'k', tables: {} } });
    expect(fromJson.statusCode).toBe(404);
  });
});

describe('upload limit', () => {
  it('answers an ETL upload over the upload limit with 413 and keeps what was stored', async () => {
    const t = await startTestApp('sqlite', { upload_limit: '4KiB' });
    try {
      const before = (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' })).body;
      const { body, contentType } = multipartBody([
        { name: 'dataset_name', value: 'example' },
        { name: 'files', filename: 'sku_data.csv', data: Buffer.alloc(64 * 1024, 'a') },
      ]);
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': contentType }, payload: body });
      expect(res.statusCode).toBe(413);
      expect(typeof res.json().detail).toBe('string');
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' })).body).toBe(before);
    } finally {
      await t.close();
    }
  });
});
