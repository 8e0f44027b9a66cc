import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/runtime/openapi-document.js';
import { installRouteDefaults } from '../../src/http/openapi/route-defaults.js';
import { CLIENT_SCHEMA_PATH, generateClientSchema } from '../../scripts/client-schema.js';
import { lintOpenApi } from '../../scripts/openapi-lint.js';

interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { type?: string; items?: { format?: string } }> } }> };
}
type Document = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

const operations = (doc: Document) => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = (await buildOpenApiDocument()) as unknown as Document;
  });

  it('is OpenAPI 3.1 with the prefix as its one server and the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers.map((s) => s.url)).toEqual(['/api/v1']);
    expect(Object.keys(doc.paths).every((p) => !p.startsWith('/api/v1'))).toBe(true);
  });

  it('gives every operation a unique operationId and error responses carrying a code', () => {
    const ops = operations(doc);
    const ids = ops.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops) {
      for (const status of ['400', '500']) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect(schema?.required, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(['detail', 'code']));
      }
    }
    expect(doc.paths['/sessions/{sid}/scenarios']!.get!.operationId).toBe('listScenarios');
    expect(doc.paths['/sessions/{sid}/compare']!.get!.operationId).toBe('compareScenarios');
  });

  it('describes the ETL upload as multipart files and dataset_name', () => {
    const body = doc.paths['/sessions/{sid}/etl']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(body.properties.dataset_name!.type).toBe('string');
    expect(body.properties.files!.items!.format).toBe('binary');
  });

  it('types the parameter descriptor as a union discriminated by type', () => {
    const ok = doc.paths['/sessions/{sid}/algorithms/{name}/parameters']!.get!.responses['200']!.content!['application/json']!.schema;
    const schema = (ok.properties!.parameters as { items: { anyOf: { properties: { type: { const?: string; enum?: string[] } } }[] } }).items;
    const kinds = schema.anyOf.map((variant) => variant.properties.type.const ?? variant.properties.type.enum?.[0]);
    expect(kinds).toEqual(['integer', 'float', 'string', 'boolean', 'enum', 'multi_enum', 'time', 'interval']);
  });

  it('passes Redocly lint (recommended ruleset) with no error', async () => {
    const { exitCode, output } = await lintOpenApi(doc);
    expect(output).toContain('valid');
    expect(exitCode, output).toBe(0);
  });

  it('matches the committed client schema (run `npm run generate:client` when this fails)', async () => {
    expect(await generateClientSchema()).toBe(readFileSync(new URL(`../../${CLIENT_SCHEMA_PATH}`, import.meta.url), 'utf8'));
    // A deadline, not a budget: openapi-typescript turns a document of ~1 MB of types, which took over
    // 30 s beside a loaded machine's other test files.
  }, 180_000);
});

describe('route defaults', () => {
  it("fill in an operationId and error responses for any plugin's route, and hide routes outside the prefix", async () => {
    const app = Fastify();
    installRouteDefaults(app, '/api');
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' }, servers: [{ url: '/api' }] } });
    await app.register(
      async (scope) => {
        const config = { errors: [] };
        scope.post('/sessions/:sid/tokens', { config, schema: { body: { type: 'object' } } }, async () => ({}));
        scope.delete('/sessions/:sid/tokens/:tokenId', { config }, async () => ({}));
        scope.get('/sessions/:sid/webhooks/:webhookId', { config }, async () => ({}));
      },
      { prefix: '/api' },
    );
    app.get('/elsewhere', async () => ({}));
    await app.ready();
    const doc = app.swagger() as unknown as Document;
    expect(Object.keys(doc.paths).sort()).toEqual(['/sessions/{sid}/tokens', '/sessions/{sid}/tokens/{tokenId}', '/sessions/{sid}/webhooks/{webhookId}']);
    const post = doc.paths['/sessions/{sid}/tokens']!.post!;
    expect(post.operationId).toBe('postSessionsBySidTokens');
    // The statuses of the codes its shape implies: a body, a session, a token, the guard, an outage.
    expect(Object.keys(post.responses).sort()).toEqual(['2XX', '400', '401', '403', '404', '413', '415', '422', '500', '503']);
    expect(doc.paths['/sessions/{sid}/tokens/{tokenId}']!.delete!.operationId).toBe('deleteSessionsBySidTokensByTokenId');
    // A route of another branch listed in the registry keeps its stable id, whatever its parameter names.
    expect(doc.paths['/sessions/{sid}/webhooks/{webhookId}']!.get!.operationId).toBe('getWebhook');
    await app.close();
  });
});
