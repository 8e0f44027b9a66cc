import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '../../src/http/errors.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface ListedErrors {
  readonly detail: string;
  readonly code: string;
  readonly errors: readonly { path: string; message: string }[];
  readonly errors_total?: number;
}

/** Every route that answers a list of errors lists the first MAX_LISTED_ERRORS, counts them all, and names a few in `detail`. */
describe.each(DIALECTS)('long error lists on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  const post = (url: string, body: unknown) => t.app.inject({ method: 'POST', url: `/api/v1/sessions/main${url}`, payload: body as object });

  const expectCapped = (body: ListedErrors, total: number) => {
    expect(body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.errors_total).toBe(total);
    // The sentence names five and counts the rest; it stays short whatever the count.
    expect(body.detail).toContain(`and ${total - 5} more (see errors)`);
    expect(body.detail.length).toBeLessThan(2_000);
  };

  it('caps the errors of 20,000 bad edits', async () => {
    const edits = Array.from({ length: 20_000 }, (_, i) => ({ table: `no_such_table_${i}`, delete: {} }));
    const res = await post('/data/example/derive', { new_key: 'never stored', edits });
    expect([res.statusCode, res.json().code]).toEqual([422, 'DATASET_EDITS_INVALID']);
    const body = res.json<ListedErrors>();
    expectCapped(body, 20_000);
    expect(body.errors[0]!.path).toBe('edits[0].table');
    expect(body.errors[99]!.path).toBe('edits[99].table');
    expect(res.body.length).toBeLessThan(50_000);
    expect((await t.app.inject({ url: '/api/v1/sessions/main/data/never%20stored' })).statusCode).toBe(404);
  });

  it('caps the errors of 5,000 unknown parameters', async () => {
    const algo_params = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`unknown_${i}`, i]));
    const res = await post('/scenarios', { tag: 'never stored', dataset_key: 'example', algo_name: 'As-Is Slotting', algo_params });
    expect([res.statusCode, res.json().code]).toEqual([400, 'PARAMETER_INVALID']);
    expectCapped(res.json<ListedErrors>(), 5_000);
  });

  it('caps the errors of a body failing its schema in 300 places', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios:run', payload: { ids: Array.from({ length: 300 }, (_, i) => i) } });
    expect([res.statusCode, res.json().code]).toEqual([422, 'INVALID_REQUEST']);
    // Each id fails as a string, and the body fails the other form of the union as well.
    const body = res.json<ListedErrors>();
    expect(body.errors_total).toBeGreaterThanOrEqual(300);
    expectCapped(body, body.errors_total!);
  });

  it('leaves a short list whole, without a total', async () => {
    const edits = Array.from({ length: 3 }, (_, i) => ({ table: `no_such_table_${i}`, delete: {} }));
    const body = (await post('/data/example/derive', { new_key: 'never stored', edits })).json<ListedErrors>();
    expect(body.errors).toHaveLength(3);
    expect(body).not.toHaveProperty('errors_total');
    expect(body.detail).not.toContain('more (see errors)');
  });
});
