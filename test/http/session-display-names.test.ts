import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface SessionList {
  sessions: { id: string; display_name: string }[];
  default: string;
}

/**
 * A display name is also an alias in every `{sid}` position, so one that could not work as an alias
 * (a session id, which `{sid}` reads as an id first; outer whitespace, which no one sees in a list) is
 * refused on create, copy and rename alike, with a 422 naming the field.
 */
describe.each(DIALECTS)('session display names that could not serve as aliases, on %s', (dialect) => {
  let t: TestApp;
  let other: { id: string; display_name: string };
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'other' } });
    other = created.json<SessionList>().sessions.find((s) => s.display_name === 'other')!;
  });
  afterAll(() => t?.close());

  const names = async () => (await t.app.inject({ url: '/api/v1/sessions' })).json<SessionList>().sessions.map((s) => s.display_name);
  const refused = (name: () => string) => [
    ['create', () => t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: name() } }), 'display_name'],
    ['copy', () => t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/copy', payload: { new_display_name: name() } }), 'new_display_name'],
    ['rename', () => t.app.inject({ method: 'PATCH', url: '/api/v1/sessions/main', payload: { display_name: name() } }), 'display_name'],
  ] as const;

  it.each([
    ["another session's id", () => other.id, /session id/],
    ["another session's id in capitals", () => other.id.toUpperCase(), /session id/],
    ['an id no session has', () => '3f2b0c7e-8d7c-4f4e-9a4e-2b6a0f1c9d11', /session id/],
    ['leading spaces', () => '  main2', /whitespace/],
    ['a trailing space', () => 'main2 ', /whitespace/],
    ['a trailing no-break space', () => 'main2\u00a0', /whitespace/],
  ])('refuses %s as a display name with 422 on create, copy and rename', async (_label, name, rule) => {
    const before = await names();
    for (const [operation, send, field] of refused(name)) {
      const res = await send();
      expect([operation, res.statusCode, res.json().code]).toEqual([operation, 422, 'INVALID_REQUEST']);
      expect(res.json().errors).toEqual([{ path: field, message: expect.stringMatching(rule) as string }]);
      expect(res.json().detail).toMatch(rule);
    }
    expect(await names()).toEqual(before);
    // The session whose id was offered is still the one its id reaches.
    expect((await t.app.inject({ url: `/api/v1/sessions/${other.id}/data` })).statusCode).toBe(200);
  });

  it('keeps inner spaces and names that merely contain an id', async () => {
    for (const name of [`a b ${dialect}`, `copy of ${other.id}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: name } });
      expect(res.statusCode, name).toBe(201);
      expect((await t.app.inject({ url: `/api/v1/sessions/${encodeURIComponent(name)}/data` })).statusCode).toBe(200);
    }
  });
});
