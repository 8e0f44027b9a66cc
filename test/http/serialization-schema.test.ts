import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type, type TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, Nullable } from '../../src/http/schemas.js';
import { forSerialization } from '../../src/http/serialization-schema.js';
import { Scenario, ScenarioList, ScenarioStatus } from '../../src/http/routes/scenarios.js';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** fast-json-stringify as Fastify builds it for a response schema. */
const serializerOf = (schema: unknown) =>
  SerializerSelector()({}, {})({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (value: unknown) => string;

/** Every `anyOf` left in a schema, by its path. */
function unionsIn(schema: unknown, path = '#'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => unionsIn(item, `${path}/${index}`));
  const own = 'anyOf' in schema ? [path] : [];
  return [...own, ...Object.entries(schema).flatMap(([key, value]) => (key === 'const' || key === 'default' ? [] : unionsIn(value, `${path}/${key}`)))];
}

/** The schema's serializer and its rewritten one write each value alike. */
function expectSameOutput(schema: TSchema, values: readonly unknown[]) {
  const asWritten = serializerOf(schema);
  const rewritten = serializerOf(forSerialization(schema));
  for (const value of values) expect(rewritten(value), JSON.stringify(value)).toBe(asWritten(value));
}

describe('forSerialization', () => {
  it('writes a value or null as the value’s schema marked nullable', () => {
    const schema = Type.Object({
      name: Nullable(Type.String(), { description: 'a name' }),
      at: Nullable(Type.String({ format: 'date-time' })),
      count: Nullable(Type.Integer()),
      tags: Nullable(Type.Array(Type.String())),
      owner: Nullable(Type.Object({ id: Type.String(), since: Nullable(Type.Number()) })),
    });
    expect(unionsIn(forSerialization(schema))).toEqual([]);
    expect(forSerialization(schema).properties.owner).toMatchObject({ type: 'object', nullable: true });
    expectSameOutput(schema, [
      { name: null, at: null, count: null, tags: null, owner: null },
      { name: 'a "quoted" name', at: new Date(Date.UTC(2026, 11, 3)), count: 3, tags: ['x', 'y'], owner: { id: 'o', since: 1.5 } },
      { name: 'b', at: '2026-12-03T00:00:00.000Z', count: 0, tags: [], owner: { id: 'p', since: null } },
    ]);
  });

  it('writes literals of one type, with or without null, as that type', () => {
    const schema = Type.Object({
      status: Type.Union([Type.Literal('CREATED'), Type.Literal('QUEUED'), Type.Literal('FAILED')]),
      level: Type.Union([Type.Literal(1), Type.Literal(2), Type.Null()]),
    });
    const rewritten = forSerialization(schema);
    expect(unionsIn(rewritten)).toEqual([]);
    expect(rewritten.properties.status).toMatchObject({ type: 'string' });
    expect(rewritten.properties.level).toMatchObject({ type: 'number', nullable: true });
    expectSameOutput(schema, [
      { status: 'CREATED', level: 1 },
      { status: 'FAILED', level: null },
    ]);
  });

  it('writes branches of distinct types as one schema of those types, objects tested before strings', () => {
    const schema = Type.Union([Type.Array(Type.Object({ id: Type.String() })), Type.Object({ items: Type.Array(Type.String()), next: Nullable(Type.String()) }), Type.String()]);
    const rewritten = forSerialization(schema) as unknown as { type: string[] };
    expect(unionsIn(rewritten)).toEqual([]);
    expect(rewritten.type).toEqual(['array', 'object', 'string']);
    expectSameOutput(schema, [[{ id: 'a' }, { id: 'b' }], [], { items: ['x'], next: null }, { items: [], next: 'c' }, 'text']);
  });

  it('keeps the unions only a validator can choose between', () => {
    const objectsByField = Type.Union([
      Type.Object({ kind: Type.Literal('a'), a: Type.String() }),
      Type.Object({ kind: Type.Literal('b'), b: Type.Number() }),
    ]);
    const literalOrObject = Type.Union([Type.Literal('replan'), Type.Object({ kind: Type.Literal('replan') })]);
    const integerOrNumber = Type.Union([Type.Integer(), Type.Number()]);
    const nullableUnion = Nullable(Type.Union([Type.Object({ kind: Type.Literal('a') }), Type.Object({ kind: Type.Literal('b') })]));
    for (const schema of [objectsByField, literalOrObject, integerOrNumber]) expect(forSerialization(schema)).toBe(schema);
    expect(unionsIn(forSerialization(nullableUnion))).toEqual(['#', '#/anyOf/0']);
    expectSameOutput(Type.Object({ x: objectsByField, y: nullableUnion }), [
      { x: { kind: 'a', a: 's' }, y: null },
      { x: { kind: 'b', b: 2 }, y: { kind: 'b' } },
    ]);
  });

  it('reads `const` and `default` as data and a property named `anyOf` as a schema', () => {
    const data = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    const schema = Type.Object({ anyOf: Nullable(Type.String()), fixed: Type.Unsafe({ type: 'object', const: data, default: data }) });
    const rewritten = forSerialization(schema) as unknown as { properties: { anyOf: object; fixed: { const: unknown; default: unknown } } };
    expect(rewritten.properties.anyOf).toMatchObject({ type: 'string', nullable: true });
    expect(rewritten.properties.fixed.const).toBe(data);
    expect(rewritten.properties.fixed.default).toBe(data);
    expect(forSerialization(Type.Object({ plain: Type.String() }))).toEqual(Type.Object({ plain: Type.String() }));
  });
});

// The output depends on the schema alone, not on the store: one dialect is enough.
describe('the scenario routes’ responses, against their schemas as written', () => {
  let t: TestApp;
  let main: ScenarioClient;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    main = new ScenarioClient(injectSender(t.app), 'main');
  });
  afterAll(() => t?.close());

  const body = async (url: string, method: 'GET' | 'POST' = 'GET') => {
    const res = await t.app.inject({ method, url: `/api/v1/sessions/main${url}` });
    return { status: res.statusCode, text: res.body };
  };

  it('leaves the scenario payload one union: the parameter descriptors, told apart by their `type`', () => {
    expect(unionsIn(forSerialization(Scenario))).toEqual(['#/properties/algorithm/properties/parameters/items']);
    expect(unionsIn(forSerialization(ScenarioList))).toEqual([
      '#/items/properties/algorithm/properties/parameters/items',
      '#/properties/items/items/properties/algorithm/properties/parameters/items',
    ]);
  });

  it('writes created, finished, failed and listed scenarios as the schemas’ own serializers do', async () => {
    const matrix = await main.created({ tag: 'matrix', algo_name: 'Parameter Matrix' });
    const done = await main.started({ tag: 'done', algo_name: 'Instant' });
    const failed = await main.started({ tag: 'failed', algo_name: 'Fail' });
    await main.waitFor(done.id);
    await main.waitFor(failed.id);

    const scenario = serializerOf(Scenario);
    for (const id of [matrix.id, done.id, failed.id]) {
      const got = await body(`/scenarios/${id}`);
      expect(got.status).toBe(200);
      expect(got.text).toBe(scenario(JSON.parse(got.text)));
      const status = await body(`/scenarios/${id}/status`);
      expect(status.text).toBe(serializerOf(ScenarioStatus)(JSON.parse(status.text)));
    }
    expect(JSON.parse((await body(`/scenarios/${failed.id}`)).text)).toMatchObject({ status: 'FAILED', error: expect.any(Object) });
    expect(JSON.parse((await body(`/scenarios/${done.id}`)).text)).toMatchObject({ status: 'COMPLETE', result: expect.any(Object) });

    const list = serializerOf(ScenarioList);
    for (const query of ['', '?limit=2', '?limit=2&fields=id,status,result']) {
      const got = await body(`/scenarios${query}`);
      expect(got.status, got.text).toBe(200);
      expect(got.text).toBe(list(JSON.parse(got.text)));
    }
    const missing = await body('/scenarios/no-such-id');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe(serializerOf(ErrorBody)(JSON.parse(missing.text)));
  });
});
