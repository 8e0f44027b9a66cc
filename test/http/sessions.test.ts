import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface SessionList {
  sessions: { id: string; display_name: string }[];
  default: string;
}

describe.each(DIALECTS)('session routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async () => (await api('GET', '/sessions')).json<SessionList>();

  it('starts with an auto-created main session that is the default', async () => {
    const body = await list();
    expect(body.sessions).toHaveLength(1);
    expect(body.sessions[0]!.display_name).toBe('main');
    expect(body.default).toBe(body.sessions[0]!.id);
  });

  it('creates a session and returns the list shape with 201', async () => {
    const res = await api('POST', '/sessions', { display_name: 'alpha' });
    expect(res.statusCode).toBe(201);
    const body = res.json<SessionList>();
    expect(body.sessions.map((s) => s.display_name)).toEqual(['main', 'alpha']);
    expect(body.default).toBe(body.sessions[0]!.id);
  });

  it('returns 409 when the display name is taken', async () => {
    const res = await api('POST', '/sessions', { display_name: 'alpha' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain('alpha');
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { display_name: '' }],
    ['a blank name', { display_name: '   ' }],
    ['a number', { display_name: 5 }],
    ['null', { display_name: null }],
    ['a name of 201 characters', { display_name: 'x'.repeat(201) }],
    ['a control character', { display_name: 'a\u0007b' }],
  ])('returns 422 with errors for %s', async (_label, payload) => {
    const res = await api('POST', '/sessions', payload);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(typeof body.detail).toBe('string');
    expect(body.errors[0].path).toContain('display_name');
  });

  it('returns 400 with a detail for malformed JSON and stores nothing', async () => {
    const before = await list();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      headers: { 'content-type': 'application/json' },
      payload: '{"display_name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().detail).toBe('string');
    expect(await list()).toEqual(before);
  });

  it('accepts unicode names and addresses a session by its display name', async () => {
    const created = await api('POST', '/sessions', { display_name: 'Lager Zürich 倉庫' });
    expect(created.statusCode).toBe(201);
    const res = await api('GET', `/sessions/${encodeURIComponent('Lager Zürich 倉庫')}/algorithms`);
    expect(res.statusCode).toBe(200);
  });

  it('renames a session keeping its id, and renaming to its own name is a no-op', async () => {
    const alpha = (await list()).sessions.find((s) => s.display_name === 'alpha')!;
    const res = await api('PATCH', `/sessions/${alpha.id}`, { display_name: 'beta' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: alpha.id, display_name: 'beta' });
    const same = await api('PATCH', `/sessions/beta`, { display_name: 'beta' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ id: alpha.id, display_name: 'beta' });
  });

  it('returns 409 when renaming to a name held by another session', async () => {
    const res = await api('PATCH', '/sessions/beta', { display_name: 'main' });
    expect(res.statusCode).toBe(409);
  });

  it.each(['nope', '..', '%2e%2e', '..%2F..%2Fetc', '00000000-0000-4000-8000-000000000000'])(
    'returns 404 with a detail for the unknown session %s',
    async (sid) => {
      for (const [method, url, payload] of [
        ['GET', `/sessions/${sid}/algorithms`, undefined],
        ['PATCH', `/sessions/${sid}`, { display_name: 'zzz' }],
        ['DELETE', `/sessions/${sid}`, undefined],
        ['POST', `/sessions/${sid}/copy`, { new_display_name: 'zzz' }],
      ] as const) {
        const res = await api(method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(typeof res.json().detail).toBe('string');
      }
    },
  );

  it('copies a session under a new name and leaves the source unchanged', async () => {
    const res = await api('POST', '/sessions/beta/copy', { new_display_name: 'beta copy' });
    expect(res.statusCode).toBe(201);
    const names = res.json<SessionList>().sessions.map((s) => s.display_name);
    expect(names).toContain('beta');
    expect(names).toContain('beta copy');
    expect((await api('POST', '/sessions/beta/copy', { new_display_name: 'beta copy' })).statusCode).toBe(409);
    expect((await api('POST', '/sessions/beta/copy', {})).statusCode).toBe(422);
  });

  it('gives exactly one 201 when one name is created concurrently', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/sessions', { display_name: 'racer' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
  });

  it('deletes sessions and re-creates main after the last one is gone', async () => {
    for (const session of (await list()).sessions) {
      const res = await api('DELETE', `/sessions/${session.id}`);
      expect(res.statusCode).toBe(200);
    }
    const body = await list();
    expect(body.sessions.map((s) => s.display_name)).toEqual(['main']);
    expect(body.default).toBe(body.sessions[0]!.id);
  });

  it('makes the earliest-created remaining session the default', async () => {
    await api('POST', '/sessions', { display_name: 'second' });
    const main = (await list()).sessions[0]!;
    const res = await api('DELETE', `/sessions/${main.id}`);
    const body = res.json<SessionList>();
    expect(body.sessions.map((s) => s.display_name)).toEqual(['second']);
    expect(body.default).toBe(body.sessions[0]!.id);
  });
});
