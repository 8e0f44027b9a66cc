import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));
const DECODING_DOMAIN = fileURLToPath(new URL('./fixtures/decoding-domain.ts', import.meta.url));

/** POSTs `body` over a real connection and reads the whole response. */
function send(base: string, path: string, body: Buffer, contentType: string): Promise<{ status: number; body: string }> {
  const address = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address.hostname, port: address.port, method: 'POST', path, headers: { 'content-type': contentType, 'content-length': body.length } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const deep = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe.each(DIALECTS)('ingest routes: bad inputs are 4xx and change nothing, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  let base: string | undefined;
  const listening = async () => (base ??= await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const stored = async () => {
    const keys = (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data' })).json<{ keys: string[] }>().keys;
    const example = (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' })).body;
    return { keys, example };
  };
  const postRaw = (url: string, payload: string | Buffer, contentType: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/sessions/main${url}`, headers: { 'content-type': contentType }, payload });

  it.each([
    ['a root nested 10,000 deep', deep(10_000)],
    ['a column nested 10,000 deep', `{"key":"deep","tables":{"t":{"columns":[{"name":"a","type":"string","x":${deep(10_000)}}],"rows":[]}}}`],
    ['a cell nested 10,000 deep', `{"key":"deep","tables":{"t":{"columns":[{"name":"a","type":"string"}],"rows":[[${deep(10_000)}]]}}}`],
    ['an unknown member nested 10,000 deep', `{"key":"deep","tables":{},"extra":${deep(10_000, '{}')}}`],
  ])('answers from-json with %s by 400 BODY_TOO_DEEP, as every JSON route', async (_label, body) => {
    const before = await stored();
    const res = await postRaw('/data/from-json', body, 'application/json');
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_TOO_DEEP']);
    expect(res.json().detail).toMatch(/nests deeper than 100 levels/);
    expect(await stored()).toEqual(before);
  });

  it('answers a truncated multipart body by 400', async () => {
    const before = await stored();
    const { body, contentType } = multipartBody([
      { name: 'dataset_name', value: 'cut' },
      { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
    ]);
    // Over a real connection: the HTTP request is complete, the multipart body in it is cut off.
    const res = await send(await listening(), '/api/v1/sessions/main/etl', body.subarray(0, body.length - 200), contentType);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).detail).toMatch(/the multipart body cannot be read/);
    expect(await stored()).toEqual(before);
  });

  it('answers a multipart body without a boundary by 400', async () => {
    const before = await stored();
    const { body } = multipartBody([{ name: 'dataset_name', value: 'x' }]);
    const res = await postRaw('/etl', body, 'multipart/form-data');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/the multipart Content-Type has no boundary parameter/);
    expect(await stored()).toEqual(before);
  });

  it('answers an ETL upload whose session is deleted during the upload by 404 and stores nothing', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: `doomed-${dialect}` } });
    expect(created.statusCode).toBe(201);
    const address = new URL(await listening());
    const { body, contentType } = multipartBody([
      { name: 'dataset_name', value: 'orphan' },
      { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
      { name: 'files', filename: 'warehouse_layout.csv', data: sample('warehouse_layout.csv') },
    ]);
    const staged = join(t.database.dir, 'uploads');
    const stagedBefore = existsSync(staged) ? readdirSync(staged).length : 0;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: address.hostname, port: address.port, method: 'POST', path: `/api/v1/sessions/doomed-${dialect}/etl`, headers: { 'content-type': contentType, 'content-length': body.length } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      // The first half: the server has resolved the session and is staging the first file...
      req.write(body.subarray(0, body.length >> 1));
      void until('the upload to be staged', () => existsSync(staged) && readdirSync(staged).length > stagedBefore)
        // ...when the session goes away; then the rest of the upload arrives.
        .then(() => t.app.inject({ method: 'DELETE', url: `/api/v1/sessions/doomed-${dialect}` }))
        .then((deleted) => {
          expect(deleted.statusCode).toBeLessThan(300);
          req.end(body.subarray(body.length >> 1));
        }, reject);
    });
    const res = await response;
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).detail).toMatch(/^session '.+' was deleted while its dataset 'orphan' was being stored$/);
    expect(readdirSync(staged)).toEqual([]);
  });

  it('answers from-json for a session deleted before its dataset is stored by 404', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: `gone-${dialect}` } })).statusCode).toBe(201);
    const { id } = await t.runtime.services.sessions.resolve(`gone-${dialect}`);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/sessions/${id}` });
    const staged = join(t.database.dir, 'body.json');
    writeFileSync(staged, JSON.stringify({ key: 'k', tables: {} }));
    const error = await t.runtime.services.datasets.ingestStaged(id, staged).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'SESSION_NOT_FOUND', message: `session '${id}' was deleted while its dataset 'k' was being stored` });
  });
});

describe.each(DIALECTS)('a data source decode() error on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { domain: DECODING_DOMAIN });
  });
  afterAll(() => t?.close());

  const fromJson = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const keys = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data' })).json<{ keys: string[] }>().keys;

  it('stores what the data source decodes', async () => {
    const res = await fromJson({ name: 'good', items: [['a', 1.5]] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ keys: ['good'] });
  });

  it('runs on an ingest worker thread, not on the HTTP thread', async () => {
    const res = await fromJson({ name: 'where-am-i', items: [] });
    expect(res.statusCode).toBe(201);
    expect(res.json().keys).toContain('decoded-on-a-worker-thread');
    await t.app.inject({ method: 'DELETE', url: '/api/v1/sessions/main/data/decoded-on-a-worker-thread' });
  });

  it('is a 4xx naming the table when the data source names it', async () => {
    const res = await fromJson({ name: 'bad', items: [], strict: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("the data source could not decode the dataset (table 'items'): weights must be positive");
    expect(await keys()).toEqual(['good']);
  });

  it('is a 4xx with the error message when the decoder fails on a shape it did not expect', async () => {
    const res = await fromJson({ name: 'bad' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^the data source could not decode the dataset: .*map/);
    expect(await keys()).toEqual(['good']);
  });

  it('is a 4xx when the decoder returns no dataset', async () => {
    const res = await fromJson({ name: 'nothing', items: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'the data source could not decode the dataset: its decode() returned undefined, not a dataset', code: 'DATASET_FORM_INVALID' });
    expect(await keys()).toEqual(['good']);
  });

  it('is a 4xx naming the table the default checks find wrong', async () => {
    const res = await fromJson({ name: 'bad', items: [['a', 1]], tables: { lines: { columns: 'none' } } });
    expect(res.statusCode).toBe(201);
    const broken = await fromJson({ tables: { lines: { columns: 'none' } } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().detail).toMatch(/^the data source could not decode the dataset \(table 'lines'\): /);
  });
});
