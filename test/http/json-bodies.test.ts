import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/http/guards/json-depth.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
}

const deep = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** Every route whose body the JSON parser reads (from-json streams its raw body to the ingest workers instead). */
async function jsonRoutes(t: TestApp): Promise<{ method: 'POST' | 'PATCH' | 'PUT'; url: string }[]> {
  const doc = (await t.app.inject({ url: '/openapi.json' })).json<OpenApi>();
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => op.requestBody?.content?.['application/json'] !== undefined && !path.endsWith('/from-json'))
      .map(([method]) => ({
        method: method.toUpperCase() as 'POST' | 'PATCH' | 'PUT',
        // The document's paths are relative to its server URL, the prefix.
        url: `/api/v1${path.replaceAll(/\{(\w+)\}/g, (_match, name: string) => (name === 'sid' ? 'main' : 'x'))}`,
      })),
  );
}

describe.each(DIALECTS)('JSON request bodies on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: string, method: 'POST' | 'PATCH' | 'PUT' = 'POST') =>
    t.app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload });
  const sessions = async () => (await t.app.inject({ url: '/api/v1/sessions' })).body;

  it('answers a body nested 8,000 levels deep (16 KB) on every JSON route with 400 BODY_TOO_DEEP, not a stack overflow', async () => {
    const routes = await jsonRoutes(t);
    // Sessions, scenarios, batches, experiments, webhooks, derive, copy: the list is read from the API itself.
    expect(routes.length).toBeGreaterThan(10);
    const before = await sessions();
    for (const { method, url } of routes) {
      // An unknown member passes the schema, so the NUL check walked it (and overflowed); a bare array failed validation.
      for (const body of [`{"display_name":"deep","tag":${deep(8_000, '{}')}}`, deep(8_000)]) {
        const res = await post(url, body, method);
        expect([method, url, res.statusCode, res.json().code]).toEqual([method, url, 400, 'BODY_TOO_DEEP']);
        expect(res.json().detail).toMatch(new RegExp(`nests deeper than ${MAX_BODY_DEPTH} levels`));
      }
    }
    expect(await sessions()).toBe(before);
  });

  it(`takes a body nested exactly ${MAX_BODY_DEPTH} levels to its route, and refuses one level more`, async () => {
    // The object around the parameters is level 1: the parameter value holds the rest.
    const at = (levels: number) => `{"tag":"depth ${levels}","dataset_key":"example","algo_name":"As-Is Slotting","algo_params":{"x":${deep(levels - 2)}}}`;
    const within = await post('/api/v1/sessions/main/scenarios', at(MAX_BODY_DEPTH));
    // Past the parser, the route judges it: no such parameter.
    expect([within.statusCode, within.json().code]).toEqual([400, 'PARAMETER_INVALID']);
    const beyond = await post('/api/v1/sessions/main/scenarios', at(MAX_BODY_DEPTH + 1));
    expect([beyond.statusCode, beyond.json().code]).toEqual([400, 'BODY_TOO_DEEP']);
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const res = await post('/api/v1/sessions', JSON.stringify({ display_name: `brackets ${dialect} ${'['.repeat(150)}` }));
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['__proto__ at the top', '{"display_name":"p","__proto__":{"polluted":true}}', '__proto__'],
    ['__proto__ spelled with escapes', '{"display_name":"p","\\u005f_pro\\u0074o__":{"polluted":true}}', '__proto__'],
    ['constructor.prototype in a member', '{"display_name":"p","x":[1,{"constructor":{"prototype":{"polluted":true}}}]}', 'x.1.constructor.prototype'],
  ])('refuses a key that could replace a prototype (%s) with 400 BODY_KEY_REFUSED naming it', async (_label, body, key) => {
    const before = await sessions();
    const res = await post('/api/v1/sessions', body);
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_KEY_REFUSED']);
    expect(res.json().detail).toContain(`'${key}'`);
    expect(res.json().detail).not.toMatch(/not valid JSON/);
    expect(await sessions()).toBe(before);
  });

  it('takes a key named constructor that holds no prototype', async () => {
    const res = await post('/api/v1/sessions', JSON.stringify({ display_name: `constructor ${dialect}`, constructor: 'a value' }));
    expect(res.statusCode).toBe(201);
  });

  it('answers a number beyond the range of a double on every JSON route with 400 BODY_MALFORMED naming it as sent', async () => {
    const routes = await jsonRoutes(t);
    const before = await sessions();
    for (const { method, url } of routes) {
      const res = await post(url, '{"display_name":"huge","tag":"huge","x":[1, -1e309]}', method);
      expect([method, url, res.statusCode, res.json().code]).toEqual([method, url, 400, 'BODY_MALFORMED']);
      expect(res.json().detail).toContain('number -1e309 at x[1] is beyond the range of a number');
    }
    expect(await sessions()).toBe(before);
  });

  it.each([
    ['a scale factor', '{"new_key":"huge","edits":[{"table":"sku_data","update":{"where":{"category":"pet"},"scale":{"daily_picks":1e309}}}]}', '1e309 at edits[0].update.scale.daily_picks'],
    ['a value set', '{"new_key":"huge","edits":[{"table":"sku_data","update":{"where":{"category":"pet"},"set":{"daily_picks":1E+400}}}]}', '1E+400 at edits[0].update.set.daily_picks'],
    ['a 400-digit integer', `{"new_key":"huge","edits":[{"table":"sku_data","update":{"where":{"daily_picks":${'9'.repeat(400)}},"set":{"daily_picks":1}}}]}`, `${'9'.repeat(40)}… (400 characters) at edits[0].update.where.daily_picks`],
  ])('names %s of 1e309 in edits as sent, never "got null"', async (_label, body, named) => {
    const res = await post('/api/v1/sessions/main/data/example/derive', body);
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_MALFORMED']);
    expect(res.json().detail).toContain(`number ${named} is beyond the range of a number`);
    expect(res.json().detail).not.toContain('null');
  });

  it('names a parameter value of 1e309 as sent', async () => {
    const res = await post('/api/v1/sessions/main/scenarios', '{"tag":"huge","dataset_key":"example","algo_name":"Greedy Slotting","algo_params":{"depot_x":1e309}}');
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_MALFORMED']);
    expect(res.json().detail).toContain('number 1e309 at algo_params.depot_x is beyond the range of a number');
  });

  it('names a cell of 1e309 in a from-json body as sent, and stores nothing', async () => {
    const form = '{"key":"huge","tables":{"t":{"columns":[{"name":"a","type":"float"}],"rows":[[1.5],[1e309]]}}}';
    const res = await post('/api/v1/sessions/main/data/from-json', form);
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_MALFORMED']);
    expect(res.json().detail).toContain(`number 1e309 at character ${form.indexOf('1e309') + 1} is beyond the range of a number`);
    expect((await t.app.inject({ url: '/api/v1/sessions/main/data/huge' })).statusCode).toBe(404);
  });

  it('takes numbers at the edge of the range, and exponents of three digits that stay within it', async () => {
    const res = await post('/api/v1/sessions', `{"display_name":"edge ${dialect}","x":[1.7976931348623157e308,-1e308,1e-400,"1e309 in a string"]}`);
    expect(res.statusCode).toBe(201);
  });

  it('still answers a body that is not JSON with 400 BODY_MALFORMED', async () => {
    const res = await post('/api/v1/sessions', '{"display_name":');
    expect([res.statusCode, res.json().code]).toEqual([400, 'BODY_MALFORMED']);
  });
});
