import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../src/error-factories.js';
import { ERROR_REGISTRY, type ErrorCode } from '../../src/errors.js';
import { installErrorHandling, type UndeclaredCodePolicy } from '../../src/http/errors.js';
import { installRouteDefaults } from '../../src/http/openapi/route-defaults.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Operation {
  responses: Record<string, unknown>;
  'x-error-codes'?: ErrorCode[];
}
type Paths = Record<string, Record<string, Operation>>;

/** A bare app with the error handler and one route that answers TAG_TAKEN while declaring only `declared`. */
async function appAnsweringTagTaken(undeclared: UndeclaredCodePolicy, declared: ErrorCode[], lines: string[]): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
  const app = Fastify({ loggerInstance: logger });
  installErrorHandling(app, { prefixes: [''], undeclared });
  app.post('/tags', { config: { errors: declared } }, async () => {
    throw errors.tagTaken('x');
  });
  await app.ready();
  return app;
}

describe('error declarations', () => {
  it('answer a declared code as it is', async () => {
    const app = await appAnsweringTagTaken('refuse', ['TAG_TAKEN'], []);
    const res = await app.inject({ method: 'POST', url: '/tags' });
    expect([res.statusCode, res.json<{ code: string }>().code]).toEqual([409, 'TAG_TAKEN']);
    await app.close();
  });

  it('refuse, in the test apps, a code the route does not declare, naming route and code', async () => {
    const lines: string[] = [];
    const app = await appAnsweringTagTaken('refuse', [], lines);
    const res = await app.inject({ method: 'POST', url: '/tags' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL_ERROR', detail: expect.stringMatching(/POST \/tags answered TAG_TAKEN, which it does not declare/) as string });
    expect(lines.join('')).toContain('undeclared error code');
    await app.close();
  });

  it('let a server answer an undeclared code, logged at error for whoever maintains the route', async () => {
    const lines: string[] = [];
    const app = await appAnsweringTagTaken('log', [], lines);
    const res = await app.inject({ method: 'POST', url: '/tags' });
    expect([res.statusCode, res.json<{ code: string }>().code]).toEqual([409, 'TAG_TAKEN']);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; route?: string; code?: string }).find((l) => l.msg === 'undeclared error code');
    expect(logged).toMatchObject({ route: 'POST /tags', code: 'TAG_TAKEN' });
    await app.close();
  });

  it('are required of every documented route: one without is refused when it is registered', async () => {
    const app = Fastify();
    installRouteDefaults(app, '/api');
    await expect(app.register(async (scope) => scope.get('/api/undeclared', async () => ({}))).ready()).rejects.toThrow(/GET \/api\/undeclared declares no error codes/);
    await app.close();
  });
});

describe.each(DIALECTS)('declared error codes on %s', (dialect) => {
  let t: TestApp;
  let paths: Paths;
  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/sessions/main${url}`, ...(payload === undefined ? {} : { payload }) });
  const declared = (method: string, path: string) => paths[path]?.[method.toLowerCase()]?.['x-error-codes'] ?? [];
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
    paths = (t.app.swagger() as unknown as { paths: Paths }).paths;
  });
  afterAll(() => t?.close());

  it('document for every operation the status of each code it can answer, and a code for each error status', () => {
    const drift: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const codes = operation['x-error-codes'] ?? [];
        const codeStatuses = new Set(codes.map((code) => String(ERROR_REGISTRY[code].status)));
        const errorStatuses = Object.keys(operation.responses).filter((status) => /^[45]\d\d$/.test(status));
        for (const status of codeStatuses) if (!errorStatuses.includes(status)) drift.push(`${method} ${path}: no ${status} response for its codes`);
        for (const status of errorStatuses) if (!codeStatuses.has(status)) drift.push(`${method} ${path}: a ${status} response and no code of it`);
      }
    }
    expect(drift).toEqual([]);
  });

  it('answer EXPERIMENT_NOT_FOUND on every experiment route of an unknown experiment, as the document says', async () => {
    const routes: ['GET' | 'POST' | 'DELETE', string][] = [
      ['GET', '/sessions/{sid}/experiments/{eid}'],
      ['GET', '/sessions/{sid}/experiments/{eid}/results'],
      ['POST', '/sessions/{sid}/experiments/{eid}/run'],
      ['POST', '/sessions/{sid}/experiments/{eid}/cancel'],
      ['POST', '/sessions/{sid}/experiments/{eid}/reset'],
      ['DELETE', '/sessions/{sid}/experiments/{eid}'],
    ];
    for (const [method, path] of routes) {
      const res = await api(method, path.replace('/sessions/{sid}', '').replace('{eid}', 'nope'));
      expect([res.statusCode, res.json<{ code: string }>().code], `${method} ${path}`).toEqual([404, 'EXPERIMENT_NOT_FOUND']);
      expect(declared(method, path), `${method} ${path}`).toContain('EXPERIMENT_NOT_FOUND');
    }
  });

  it('answer DATASET_NOT_FOUND and ALGORITHM_NOT_FOUND on creating an experiment, as the document says', async () => {
    const axes = { 'algo_params.depot_x': [0, 10] };
    const noDataset = await api('POST', '/experiments', { name: 'no dataset', algo_name: 'Greedy Slotting', dataset_key: 'nope', axes });
    expect([noDataset.statusCode, noDataset.json<{ code: string }>().code]).toEqual([404, 'DATASET_NOT_FOUND']);
    const noAlgorithm = await api('POST', '/experiments', { name: 'no algorithm', algo_name: 'Nope', dataset_key: 'example', axes });
    expect([noAlgorithm.statusCode, noAlgorithm.json<{ code: string }>().code]).toEqual([404, 'ALGORITHM_NOT_FOUND']);
    expect(declared('POST', '/sessions/{sid}/experiments')).toEqual(expect.arrayContaining(['DATASET_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'EXPERIMENT_AXES_INVALID', 'EXPERIMENT_TOO_LARGE']));
  });

  it('answer a format or sort a route cannot give 400 QUERY_INVALID naming the parameter, as errors.md describes', async () => {
    const cases: [string, string][] = [
      ['/experiments/nope/results?format=pdf', '/sessions/{sid}/experiments/{eid}/results'],
      ['/data/example?format=pdf', '/sessions/{sid}/data/{key}'],
      ['/schemas/sku_data/template?format=pdf', '/sessions/{sid}/schemas/{group}/template'],
      ['/scenarios?sort=size', '/sessions/{sid}/scenarios'],
    ];
    for (const [url, path] of cases) {
      const res = await api('GET', url);
      const body = res.json<{ code: string; errors?: { path: string }[] }>();
      expect([res.statusCode, body.code], url).toEqual([400, 'QUERY_INVALID']);
      expect(body.errors?.map((e) => e.path), url).toEqual([url.includes('sort=') ? 'sort' : 'format']);
      expect(declared('GET', path), url).toContain('QUERY_INVALID');
    }
  });
});
