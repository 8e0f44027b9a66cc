import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH } from '../../src/datasets/names.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface ErrorReply {
  code: string;
  detail: string;
  errors: { path: string; message: string }[];
}

/**
 * `q`, the free-text filter of the scenario list, the dataset list and the batch routes' filter, becomes a
 * LIKE pattern; SQLite refuses a pattern over 50,000 bytes ("LIKE or GLOB pattern too complex"). Every
 * one of them is bounded alike, at the longest tag or key a substring could match.
 */
describe.each(DIALECTS)('free-text filters on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
    for (const tag of ['alpha 100%', 'beta_1']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios', payload: { tag, dataset_key: 'example', algo_name: 'As-Is Slotting' } });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t?.close());

  const tags = async () => (await t.app.inject({ url: '/api/v1/sessions/main/scenarios' })).json<{ tag: string }[]>().map((s) => s.tag);
  const batchDelete = (q: string) => t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios:delete', payload: { filter: { q } } });

  it('answers a batch filter q of 50,000 characters with 422 naming filter.q, and deletes nothing', async () => {
    const before = await tags();
    for (const q of ['a'.repeat(50_000), '%'.repeat(50_000)]) {
      const res = await batchDelete(q);
      expect(res.statusCode).toBe(422);
      const body = res.json<ErrorReply>();
      expect(body.code).toBe('INVALID_REQUEST');
      // The body is one of two shapes (ids or filter), and the validator reports against both.
      expect(body.errors).toContainEqual({ path: 'filter.q', message: expect.stringContaining(String(MAX_NAME_LENGTH)) as string });
    }
    expect(await tags()).toEqual(before);
  });

  it.each([
    ['scenario list', '/api/v1/sessions/main/scenarios'],
    ['dataset list', '/api/v1/sessions/main/data'],
  ])(`answers a %s q one character over ${MAX_NAME_LENGTH} with 400 QUERY_INVALID naming q`, async (_label, url) => {
    const res = await t.app.inject({ url: `${url}?q=${'_'.repeat(MAX_NAME_LENGTH + 1)}` });
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorReply>();
    expect([body.code, body.errors.map((e) => e.path)]).toEqual(['QUERY_INVALID', ['q']]);
    expect(body.detail).toContain(String(MAX_NAME_LENGTH));
  });

  it(`takes a q of ${MAX_NAME_LENGTH} characters on every filter, wildcards matched as plain text`, async () => {
    const longest = '%'.repeat(MAX_NAME_LENGTH);
    const listed = await t.app.inject({ url: `/api/v1/sessions/main/scenarios?q=${encodeURIComponent(longest)}` });
    expect([listed.statusCode, listed.json<{ items: unknown[] }>().items]).toEqual([200, []]);
    const datasets = await t.app.inject({ url: `/api/v1/sessions/main/data?q=${'_'.repeat(MAX_NAME_LENGTH)}` });
    expect([datasets.statusCode, datasets.json<{ items: unknown[] }>().items]).toEqual([200, []]);
    const batch = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios:reset', payload: { filter: { q: longest } } });
    expect([batch.statusCode, batch.json<{ changed: number; skipped: number }>()]).toMatchObject([200, { changed: 0, skipped: 0 }]);
    const percent = await t.app.inject({ url: '/api/v1/sessions/main/scenarios?q=0%25' });
    expect(percent.json<{ items: { tag: string }[] }>().items.map((s) => s.tag)).toEqual(['alpha 100%']);
  });
});
