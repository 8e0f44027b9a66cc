import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazySchemaCompilers } from '../../src/http/lazy-schema-compilers.js';

function appWith(compilers: LazySchemaCompilers) {
  const app = Fastify({ schemaController: { compilersFactory: { buildValidator: compilers.validators, buildSerializer: compilers.serializers } } });
  const body = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
  const response = { 200: { type: 'object', properties: { doubled: { type: 'integer' } } } };
  app.post('/double', { schema: { body, response } }, async (request) => ({ doubled: (request.body as { n: number }).n * 2, secret: 'never sent' }));
  app.get('/other', { schema: { response } }, async () => ({ doubled: 1 }));
  return app;
}

describe('LazySchemaCompilers', () => {
  it('compiles nothing before a route is used, then validates and serializes as Fastify does', async () => {
    const compilers = new LazySchemaCompilers();
    const app = appWith(compilers);
    await app.ready();
    // The body's validator and a response serializer per route (GET /other has its HEAD twin): none compiled yet.
    expect(compilers.uncompiled).toBe(4);

    const ok = await app.inject({ method: 'POST', url: '/double', payload: { n: 21 } });
    expect(ok.statusCode).toBe(200);
    // The response schema is applied: a field it does not name is not sent.
    expect(ok.json()).toEqual({ doubled: 42 });
    const bad = await app.inject({ method: 'POST', url: '/double', payload: { n: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/body\/n must be integer/);
    // The used route's validator and serializer are compiled; the other route's (and its HEAD's) are not.
    expect(compilers.uncompiled).toBe(2);
    await app.close();
  });

  it('compiles the rest ahead, and stops when told to', async () => {
    const compilers = new LazySchemaCompilers();
    const app = appWith(compilers);
    await app.ready();
    await compilers.compileAhead(() => true);
    expect(compilers.uncompiled).toBe(4);
    await compilers.compileAhead();
    expect(compilers.uncompiled).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/other' })).json()).toEqual({ doubled: 1 });
    await app.close();
  });
});
