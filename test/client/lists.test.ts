import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Page<T = Record<string, unknown>> {
  items: T[];
  next_cursor: string | null;
}

describe.each(DIALECTS)('list queries on %s', (dialect) => {
  let t: TestApp;
  let client: ScenarioClient;
  const get = async <T = unknown>(url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${url}` });
    return { status: res.statusCode, body: res.json<T>() };
  };
  /** Every item of a listing, following next_cursor; the pages' sizes too. */
  const walk = async (query: string) => {
    const items: Record<string, unknown>[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const reply: { status: number; body: Page } = await get<Page>(`/scenarios?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(reply.status).toBe(200);
      items.push(...reply.body.items);
      sizes.push(reply.body.items.length);
      cursor = reply.body.next_cursor;
    } while (cursor !== null);
    return { items, sizes };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    client = new ScenarioClient(injectSender(t.app), 'main');
    // Three finished runs with different Travel Distances, two not run, one with a tag to search.
    for (const [tag, algo] of [
      ['as-is', 'As-Is Slotting'],
      ['greedy', 'Greedy Slotting'],
      ['instant', 'Instant'],
    ] as const) {
      const s = await client.started({ tag, algo_name: algo });
      await client.waitFor(s.id);
    }
    await client.created({ tag: 'Pending Alpha', algo_name: 'Instant' });
    await client.created({ tag: 'pending beta_50%', algo_name: 'Greedy Slotting' });
  });
  afterAll(() => t?.close());

  it('keeps the plain array without query parameters', async () => {
    const reply = await get<unknown[]>('/scenarios');
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body).toHaveLength(5);
  });

  it('filters by status, algorithm, dataset and tag substring (case-insensitive, % and _ literal)', async () => {
    const tags = async (query: string) => (await get<Page>(`/scenarios?${query}`)).body.items.map((s) => s.tag);
    expect(await tags('status=COMPLETE')).toEqual(['as-is', 'greedy', 'instant']);
    expect(await tags('status=CREATED&algo=Instant')).toEqual(['Pending Alpha']);
    expect(await tags('algo=Greedy%20Slotting')).toEqual(['greedy', 'pending beta_50%']);
    expect(await tags('dataset=example&q=PENDING')).toEqual(['Pending Alpha', 'pending beta_50%']);
    expect(await tags('q=_50%25')).toEqual(['pending beta_50%']);
    expect(await tags('q=a%255')).toEqual([]);
    expect(await tags('q=e_a')).toEqual([]);
    expect(await tags('dataset=nope')).toEqual([]);
  });

  it('sorts by creation, tag and a KPI (scenarios without the value last, in creation order)', async () => {
    const tags = async (sort: string) => (await get<Page>(`/scenarios?sort=${encodeURIComponent(sort)}`)).body.items.map((s) => s.tag);
    expect(await tags('-created_at')).toEqual(['pending beta_50%', 'Pending Alpha', 'instant', 'greedy', 'as-is']);
    const byTag = await tags('tag');
    expect(byTag).toHaveLength(5);
    expect(await tags('-tag')).toEqual([...byTag].reverse());

    const scenarios = (await get<{ tag: string; kpis: Record<string, { value: number | null }> }[]>('/scenarios')).body;
    const distance = (tag: string) => scenarios.find((s) => s.tag === tag)!.kpis['Travel Distance']!.value!;
    const finished = ['as-is', 'greedy', 'instant'];
    const ascending = [...finished].sort((a, b) => distance(a) - distance(b));
    expect(distance('instant')).toBe(0);
    expect(distance('greedy')).toBeLessThan(distance('as-is'));
    expect(await tags('kpi:Travel Distance')).toEqual([...ascending, 'Pending Alpha', 'pending beta_50%']);
    expect(await tags('-kpi:Travel Distance')).toEqual([...ascending].reverse().concat(['Pending Alpha', 'pending beta_50%']));
  });

  it('pages through every sort with a cursor, each scenario once', async () => {
    for (const sort of ['created_at', '-created_at', 'tag', '-tag', 'kpi:Travel Distance', '-kpi:Travel Distance']) {
      const all = (await get<Page>(`/scenarios?sort=${encodeURIComponent(sort)}&limit=500`)).body.items.map((s) => s.id);
      const { items, sizes } = await walk(`sort=${encodeURIComponent(sort)}&limit=2`);
      expect(items.map((s) => s.id), sort).toEqual(all);
      expect(sizes, sort).toEqual([2, 2, 1]);
    }
  });

  it('answers only the fields asked for, and skips the result unless asked', async () => {
    const page = (await get<Page>('/scenarios?fields=tag,status,kpis&status=COMPLETE&limit=1')).body;
    expect(Object.keys(page.items[0]!).sort()).toEqual(['kpis', 'status', 'tag']);
    const withResult = (await get<Page>('/scenarios?fields=id,result&status=COMPLETE&limit=1')).body.items[0]!;
    expect(withResult.result).toMatchObject({ assignments: expect.any(Array) });
  });

  it.each([
    ['limit=0', 400],
    ['limit=501', 400],
    ['limit=ten', 400],
    ['status=DONE', 400],
    ['sort=size', 400],
    ['sort=kpi:Nope', 400],
    ['fields=tag,bogus', 400],
    ['fields=,', 400],
    ['cursor=%%%', 400],
    ['cursor=bm90IGpzb24', 400],
  ])('rejects %s with %i and a code', async (query, status) => {
    const reply = await get<{ detail: string; code: string }>(`/scenarios?${query}`);
    expect(reply.status).toBe(status);
    expect(reply.body.detail).toEqual(expect.any(String));
    expect(reply.body.code).toMatch(query.startsWith('cursor=') ? /^CURSOR_INVALID$/ : /^QUERY_INVALID$/);
  });

  it('refuses a cursor made under another sort', async () => {
    const cursor = (await get<Page>('/scenarios?sort=tag&limit=1')).body.next_cursor!;
    const reply = await get<{ detail: string }>(`/scenarios?sort=-tag&cursor=${cursor}`);
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toContain('sort');
  });

  it('neither skips nor repeats under concurrent inserts', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'busy' } });
    await t.app.inject({ method: 'POST', url: '/api/v1/sessions/busy/data/from-json', headers: { 'content-type': 'application/json' }, payload: (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' })).body });
    const busy = new ScenarioClient(injectSender(t.app), 'busy');
    const before: string[] = [];
    for (let i = 0; i < 40; i++) before.push((await busy.created({ tag: `before-${String(i).padStart(2, '0')}`, algo_name: 'Instant' })).id);
    let inserted = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop && inserted < 200) await busy.created({ tag: `during-${inserted++}`, algo_name: 'Instant' });
    })();
    for (const sort of ['created_at', '-created_at', 'tag', '-tag']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/api/v1/sessions/busy/scenarios?limit=7&fields=id&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`;
        const page: Page<{ id: string }> = (await t.app.inject({ method: 'GET', url })).json();
        seen.push(...page.items.map((s) => s.id));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(new Set(seen).size, `${sort}: repeated`).toBe(seen.length);
      expect(before.filter((id) => !seen.includes(id)), `${sort}: skipped`).toEqual([]);
    }
    stop = true;
    await writer;
    expect(inserted).toBeGreaterThan(0);
  });

  it('sorts a copied session by KPI like its source', async () => {
    const copy = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/copy', payload: { new_display_name: 'main-copy' } });
    expect(copy.statusCode).toBe(201);
    const tags = async (sid: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/sessions/${sid}/scenarios?sort=kpi:Travel%20Distance&fields=tag` })).json<Page>().items.map((s) => s.tag);
    expect(await tags('main-copy')).toEqual(await tags('main'));
  });

  it('lists datasets as a page with their tables, filtered and paged', async () => {
    for (const key of ['derived-a', 'derived-b', 'other']) {
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/example/derive', payload: { new_key: key } })).statusCode).toBe(201);
    }
    expect((await get<{ keys: string[] }>('/data')).body.keys).toEqual(['example', 'derived-a', 'derived-b', 'other']);
    const first = (await get<Page>('/data?limit=2')).body;
    expect(first.items.map((d) => d.key)).toEqual(['example', 'derived-a']);
    const example = first.items[0] as { kind: string; created_at: string; tables: { name: string; columns: { name: string }[]; rows: number }[] };
    expect(example.kind).toBe('master');
    expect(example.tables.map((tb) => [tb.name, tb.rows])).toEqual([
      ['sku_data', 200],
      ['warehouse_layout', 240],
    ]);
    expect(example.tables[0]!.columns[0]).toEqual({ name: 'sku', type: 'string' });
    const second = (await get<Page>(`/data?limit=2&cursor=${first.next_cursor}`)).body;
    expect(second.items.map((d) => d.key)).toEqual(['derived-b', 'other']);
    expect(second.next_cursor).toBeNull();
    expect((await get<Page>('/data?kind=derived&q=DERIVED')).body.items.map((d) => d.key)).toEqual(['derived-a', 'derived-b']);
    expect((await get<Page>('/data?kind=master')).body.items.map((d) => d.key)).toEqual(['example']);
    expect((await get('/data?kind=other')).status).toBe(400);
    expect((await get('/data?cursor=abc')).status).toBe(400);
  });
});
