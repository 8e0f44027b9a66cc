import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazySchemaCompilers } from '../../src/http/lazy-schema-compilers.js';

function appWith(compilers: LazySchemaCompilers) {
  const app = Fastify({ schemaController: { compilersFactory: { buildValidator: compilers.validators, buildSerializer: compilers.serializers } } });
  const body = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
  // Each route its own response schema (a schema shared by routes compiles once; see below).
  const response = () => ({ 200: { type: 'object', properties: { doubled: { type: 'integer' } } } });
  app.post('/double', { schema: { body, response: response() } }, async (request) => ({ doubled: (request.body as { n: number }).n * 2, secret: 'never sent' }));
  app.get('/other', { schema: { response: response() } }, async () => ({ doubled: 1 }));
  return app;
}

describe('LazySchemaCompilers', () => {
  it('compiles nothing before a route is used, then validates and serializes as Fastify does', async () => {
    const compilers = new LazySchemaCompilers();
    const app = appWith(compilers);
    await app.ready();
    // The body's validator and a response serializer per route (GET /other's HEAD twin shares its schema): none compiled yet.
    expect(compilers.uncompiled).toBe(3);

    const ok = await app.inject({ method: 'POST', url: '/double', payload: { n: 21 } });
    expect(ok.statusCode).toBe(200);
    // The response schema is applied: a field it does not name is not sent.
    expect(ok.json()).toEqual({ doubled: 42 });
    const bad = await app.inject({ method: 'POST', url: '/double', payload: { n: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/body\/n must be integer/);
    // The used route's validator and serializer are compiled; the other route's (and its HEAD's) is not.
    expect(compilers.uncompiled).toBe(1);
    await app.close();
  });

  it('compiles a response schema that many routes, statuses and scopes share once, and serializes it for each', async () => {
    const compilers = new LazySchemaCompilers();
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator: compilers.validators, buildSerializer: compilers.serializers } } });
    const problem = { type: 'object', properties: { detail: { type: 'string' } } };
    const response = { 404: problem, 409: problem };
    for (const name of ['a', 'b', 'c']) {
      // Each in a plugin scope of its own, as the app registers its route groups.
      await app.register(async (scope) => {
        scope.get(`/${name}`, { schema: { response } }, async (_request, reply) => reply.code(name === 'c' ? 409 : 404).send({ detail: `no ${name}`, stack: 'never sent' }));
      });
    }
    await app.ready();
    // Three routes, their HEAD twins and two statuses: twelve serializers asked for, one schema.
    expect(compilers.uncompiled).toBe(1);
    const a = await app.inject({ method: 'GET', url: '/a' });
    expect(a.statusCode).toBe(404);
    expect(a.json()).toEqual({ detail: 'no a' });
    expect(compilers.uncompiled).toBe(0);
    const c = await app.inject({ method: 'GET', url: '/c' });
    expect(c.statusCode).toBe(409);
    expect(c.json()).toEqual({ detail: 'no c' });
    await app.close();
  });

  it('compiles a schema again for routes whose shared schemas differ', async () => {
    const compilers = new LazySchemaCompilers();
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator: compilers.validators, buildSerializer: compilers.serializers } } });
    const body = { type: 'object', properties: { item: { $ref: 'item#' } } };
    for (const [name, item] of [
      ['plain', { $id: 'item', type: 'object', properties: { kept: { type: 'string' } } }],
      ['wide', { $id: 'item', type: 'object', properties: { kept: { type: 'string' }, extra: { type: 'string' } } }],
    ] as const) {
      await app.register(async (scope) => {
        scope.addSchema(item);
        scope.get(`/${name}`, { schema: { response: { 200: body } } }, async () => ({ item: { kept: 'k', extra: 'e' } }));
      });
    }
    await app.ready();
    expect(compilers.uncompiled).toBe(2);
    expect((await app.inject({ method: 'GET', url: '/plain' })).json()).toEqual({ item: { kept: 'k' } });
    expect((await app.inject({ method: 'GET', url: '/wide' })).json()).toEqual({ item: { kept: 'k', extra: 'e' } });
    await app.close();
  });
});
