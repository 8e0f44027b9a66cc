import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LONE_HIGH = '\ud800';
const LONE_LOW = '\udc00';

describe.each(DIALECTS)('names on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  const json = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
    t.app.inject({ method, url: `/api/v1${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v1${path}` });
  const del = (path: string) => t.app.inject({ method: 'DELETE', url: `/api/v1${path}` });
  const at = (name: string) => encodeURIComponent(name);
  const state = async () => {
    const sessions = (await get('/sessions')).json<{ sessions: { display_name: string }[] }>().sessions.map((s) => s.display_name);
    return JSON.stringify({ sessions, data: (await get('/sessions/main/data')).json(), scenarios: (await get('/sessions/main/scenarios')).json() });
  };

  describe('every name that can be created can be addressed', () => {
    it.each([
      ['101 characters', 'n'.repeat(101)],
      ['150 characters', 's'.repeat(150)],
      ['200 characters', 'm'.repeat(200)],
      ['200 accented characters', 'é'.repeat(200)],
      ['200 astral characters (400 UTF-16 units)', '🚀'.repeat(200)],
      ['200 characters with slashes, spaces and percent signs', 'a/b %2F c?#&'.repeat(16).slice(0, 200)],
    ])('a session display name of %s', async (_label, name) => {
      const created = await json('POST', '/sessions', { display_name: name });
      expect(created.statusCode).toBe(201);
      expect((await get(`/sessions/${at(name)}/data`)).statusCode).toBe(200);
      expect((await get(`/sessions/${at(name)}/scenarios`)).statusCode).toBe(200);
      const renamed = `${[...name].slice(0, 199).join('')}r`;
      const patch = await json('PATCH', `/sessions/${at(name)}`, { display_name: renamed });
      expect(patch.statusCode).toBe(200);
      expect(patch.json().display_name).toBe(renamed);
      const removed = await del(`/sessions/${at(renamed)}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json().sessions.map((s: { display_name: string }) => s.display_name)).not.toContain(renamed);
    });

    it.each([
      ['120 characters', 'k'.repeat(120)],
      ['200 characters', 'K'.repeat(200)],
      ['200 CJK characters', '数'.repeat(200)],
      ['200 astral characters', '𝔘'.repeat(200)],
    ])('a dataset key of %s (derived and from-json)', async (_label, key) => {
      const derived = await json('POST', '/sessions/main/data/example/derive', { new_key: key });
      expect(derived.statusCode).toBe(201);
      expect((await get(`/sessions/main/data/${at(key)}`)).json().key).toBe(key);
      expect((await get(`/sessions/main/data/${at(key)}/parameters`)).statusCode).toBe(200);
      expect((await del(`/sessions/main/data/${at(key)}`)).statusCode).toBe(204);
      const ingested = await json('POST', '/sessions/main/data/from-json', { key, tables: { t: { columns: [{ name: 'a', type: 'integer' }], rows: [[1]] } } });
      expect(ingested.statusCode).toBe(201);
      expect((await get(`/sessions/main/data/${at(key)}`)).statusCode).toBe(200);
      expect((await del(`/sessions/main/data/${at(key)}`)).statusCode).toBe(204);
      expect((await get(`/sessions/main/data/${at(key)}`)).statusCode).toBe(404);
    });

    it('answers a path segment of 10,000 characters with a 4xx and a detail', async () => {
      for (const [method, url] of [
        ['GET', `/api/v1/sessions/main/data/${'k'.repeat(10_000)}`],
        ['DELETE', `/api/v1/sessions/main/data/${'k'.repeat(10_000)}`],
        ['GET', `/api/v1/sessions/${'s'.repeat(10_000)}`],
        ['GET', `/api/v1/sessions/main/scenarios/${'%F0%9F%9A%80'.repeat(201)}/status`],
      ] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, url.slice(0, 60)).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(typeof res.json().detail).toBe('string');
      }
    });

    it('answers a name of 201 characters with 422', async () => {
      const res = await json('POST', '/sessions', { display_name: 'x'.repeat(201) });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0].path).toBe('display_name');
    });
  });

  describe('unpaired surrogates and control characters are refused with 422 naming the field', () => {
    const bad = [
      ['a lone high surrogate', `name${LONE_HIGH}`],
      ['a lone low surrogate', `${LONE_LOW}name`],
      ['a reversed pair', `${LONE_LOW}${LONE_HIGH}`],
      ['a control character', 'a\u0007b'],
      ['a newline', 'a\nb'],
      ['DEL', 'a\u007fb'],
    ] as const;

    it.each(bad)('%s in each name field, storing nothing', async (_label, name) => {
      const scenario = (await json('POST', '/sessions/main/scenarios', { tag: `ok-${_label}`, dataset_key: 'example', algo_name: 'As-Is Slotting' })).json();
      const before = await state();
      for (const [method, path, body, field] of [
        ['POST', '/sessions', { display_name: name }, 'display_name'],
        ['PATCH', '/sessions/main', { display_name: name }, 'display_name'],
        ['POST', '/sessions/main/copy', { new_display_name: name }, 'new_display_name'],
        ['POST', '/sessions/main/scenarios', { tag: name, dataset_key: 'example', algo_name: 'As-Is Slotting' }, 'tag'],
        ['POST', '/sessions/main/data/example/derive', { new_key: name }, 'new_key'],
        ['POST', '/sessions/main/data/from-json', { key: name, tables: {} }, 'key'],
      ] as const) {
        const res = await json(method, path, body);
        expect(res.statusCode, `${method} ${path}`).toBe(422);
        const payload = res.json();
        expect(payload.detail).toContain(field);
        expect(payload.errors.map((e: { path: string }) => e.path)).toContain(field);
      }
      expect(await state()).toBe(before);
      expect((await del(`/sessions/main/scenarios/${scenario.id}`)).statusCode).toBe(204);
    });

    it.each([
      ['U+202E (right-to-left override) at position 3', 'ab\u202Etxt.exe'],
      ['U+202A (left-to-right embedding) at position 1', '\u202Aname'],
      ['U+2066 (left-to-right isolate) at position 2', 'a\u2066b'],
      ['U+2069 (pop directional isolate) at position 2', 'a\u2069'],
      ['U+200E (left-to-right mark) at position 5', 'main\u200E'],
      ['U+200F (right-to-left mark) at position 2', 'm\u200Fain'],
      ['U+061C (Arabic letter mark) at position 2', 'x\u061Cy'],
      ['U+200B (zero width space) at position 2', 'm\u200Bain'],
      ['U+200D (zero width joiner) at position 3', '🚀x\u200Dy'],
      ['U+2060 (word joiner) at position 2', 'a\u2060b'],
      ['U+FEFF (zero width no-break space) at position 1', '\uFEFFmain'],
      ['U+00AD (soft hyphen) at position 2', 'a\u00ADb'],
      ['U+E0041 (invisible format character) at position 2', 'a\u{E0041}b'],
      ['U+0007 (control character) at position 2', 'a\u0007b'],
    ])('refuses %s in every name field with 422 naming the field and the character, storing nothing', async (named, name) => {
      const before = await state();
      for (const [method, path, body, field] of [
        ['POST', '/sessions', { display_name: name }, 'display_name'],
        ['PATCH', '/sessions/main', { display_name: name }, 'display_name'],
        ['POST', '/sessions/main/copy', { new_display_name: name }, 'new_display_name'],
        ['POST', '/sessions/main/scenarios', { tag: name, dataset_key: 'example', algo_name: 'As-Is Slotting' }, 'tag'],
        ['POST', '/sessions/main/experiments', { name, dataset_key: 'example', algo_name: 'As-Is Slotting', axes: {} }, 'name'],
        ['POST', '/sessions/main/data/example/derive', { new_key: name }, 'new_key'],
        ['POST', '/sessions/main/data/from-json', { key: name, tables: {} }, 'key'],
      ] as const) {
        const res = await json(method, path, body);
        expect(res.statusCode, `${method} ${path}`).toBe(422);
        const payload = res.json<{ detail: string; errors: { path: string; message: string }[] }>();
        expect(payload.detail).toContain(`${named} is not allowed`);
        expect(payload.errors.find((e) => e.path === field)?.message, `${method} ${path}`).toContain(`${named} is not allowed`);
      }
      expect(await state()).toBe(before);
    });

    it('accepts a well-formed surrogate pair (an emoji) and returns it unchanged', async () => {
      const res = await json('POST', '/sessions/main/scenarios', { tag: 'rocket 🚀', dataset_key: 'example', algo_name: 'As-Is Slotting' });
      expect(res.statusCode).toBe(201);
      expect(res.json().tag).toBe('rocket 🚀');
    });
  });
});
