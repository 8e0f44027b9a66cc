import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildXlsx } from '../datasets/etl/support/xlsx-builder.js';
import { multipartBody } from '../support/multipart.js';
import { BIN, freePort, REPO_ROOT, runCli } from '../support/server-process.js';
import { until } from '../support/until.js';
import { runNodeTest } from '../support/node-test-run.js';

const root = mkdtempSync(join(tmpdir(), 'scenarist-init-e2e-'));
const project = join(root, 'shop');
const running: Cli[] = [];

const ORDERS = `order_no,customer,amount,quantity,paid,placed_at,note
A-1,Ada,12.50,3,yes,2024-01-31,
A-2,Bob,"7,25",1,no,2024-02-01T08:30:00Z,rush
A-3,Ada,100,12,true,2024-02-03,
`;
const CHAIN = JSON.stringify({ stores: [{ id: 1, city: 'Lyon' }, { id: 2, city: 'Oslo' }] });
const SITE = buildXlsx({ zones: [['zone', 'area'], ['N', 120.5], ['S', 80]], shifts: [['shift', 'hours'], ['early', 8], ['late', 7.5]] });
const SAMPLES: Record<string, string | Buffer> = { 'orders.csv': ORDERS, 'chain.json': CHAIN, 'site.xlsx': SITE };

/** What `npm install` makes of the project's dependencies, linked to this checkout instead of downloaded. */
function linkDependencies(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'scenarist'));
  for (const name of ['tsx', 'typescript', '@types/node']) symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name));
}

/** A copy of the scaffolded project (dependency links kept as links) to break in one way. */
function copyProject(name: string, change: (dir: string) => void): string {
  const dir = join(root, name);
  cpSync(project, dir, { recursive: true, verbatimSymlinks: true });
  change(dir);
  return dir;
}

const typeError = (dir: string) => appendFileSync(join(dir, 'algorithms/top-rows.ts'), "\nexport const wrong: number = 'text';\n");

interface Cli {
  readonly base: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `scenarist <command>` on a free port and waits until it serves. Not the shared startServer: a
 * type check before start-up takes longer than its deadline on a busy machine.
 */
async function startCli(command: 'serve' | 'dev', args: readonly string[]): Promise<Cli> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, command, '--port', String(port), '--data-dir', mkdtempSync(join(root, 'data-')), '--workers', '1', ...args], {
    cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const cli: Cli = {
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  running.push(cli);
  await until(`scenarist ${command} to serve`, async () => {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
    // Refused until the server listens.
    return (await fetch(`${cli.base}/health`).catch(() => undefined))?.ok;
  }, { within: 240_000, every: 200 });
  return cli;
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function uploadSamples(base: string, datasetName: string): Promise<void> {
  const { body, contentType } = multipartBody([
    { name: 'dataset_name', value: datasetName },
    ...Object.entries(SAMPLES).map(([filename, data]) => ({ name: 'files', filename, data: Buffer.from(data) })),
  ]);
  const result = await json<{ success: boolean; messages: unknown[] }>(`${base}/api/v1/sessions/main/etl`, { method: 'POST', headers: { 'content-type': contentType }, body });
  expect(result, JSON.stringify(result.messages)).toMatchObject({ success: true });
}

beforeAll(async () => {
  const inputs = Object.entries(SAMPLES).map(([name, data]) => {
    writeFileSync(join(root, name), data);
    return join(root, name);
  });
  const { code, output } = await runCli(['init', project, '--from-data', ...inputs]);
  expect(code, output).toBe(0);
  expect(output).toContain('orders (orders.csv, 3 rows): order_no: string (key), customer: string, amount: float');
  expect(output).toContain('zones (site.xlsx, 2 rows): zone: string (key), area: float');
  linkDependencies(project);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((cli) => cli.stop()));
  rmSync(root, { recursive: true, force: true });
});

describe('a scaffolded domain project', () => {
  it('infers the schema of every table as code', () => {
    const schemas = readFileSync(join(project, 'schemas.ts'), 'utf8');
    expect(schemas).toContain("stores: {\n        columns: {\n          id: { type: 'integer', primaryKey: true },\n          city: { type: 'string' },");
    expect(schemas).toContain("shifts: {\n        columns: {\n          shift: { type: 'string', primaryKey: true },\n          hours: { type: 'float' },");
  });

  it('passes its own unit test with node --test', async () => {
    const { code, output } = await runNodeTest(project, 'test/top-rows.test.ts');
    expect(code, output).toBe(0);
    expect(output).toContain('# pass 2');
    expect(output).toContain('# fail 0');
  }, 120_000);

  it('is served type-checked, takes an upload of its sample files and computes its typed KPI', async () => {
    const server = await startCli('serve', ['--typecheck', '--domain', join(project, 'domain.ts')]);
    const base = server.base;
    expect(await json(`${base}/api/v1/sessions/main/data`)).toEqual({ keys: ['sample'] });
    await uploadSamples(base, 'mine');
    const created = await json<{ id: string }>(`${base}/api/v1/sessions/main/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tag: 'top', dataset_key: 'mine', algo_name: 'Top Rows', algo_params: { count: 2 } }),
    });
    expect((await fetch(`${base}/api/v1/sessions/main/scenarios/${created.id}/run`, { method: 'POST' })).status).toBe(202);
    const done = await until('the run to complete', async () => {
      const scenario = await json<{ status: string; kpis: Record<string, { value: number | null }>; result: unknown }>(`${base}/api/v1/sessions/main/scenarios/${created.id}`);
      return scenario.status === 'COMPLETE' || scenario.status === 'FAILED' ? scenario : undefined;
    }, { within: 120_000, every: 200 });
    expect(done.status).toBe('COMPLETE');
    expect(done.result).toEqual({ picked: [{ label: 'A-3', value: 100 }, { label: 'A-1', value: 12.5 }], total: 112.5 });
    expect(done.kpis['Picked amount']?.value).toBe(112.5);
    // Every new domain starts with a visible result: a table view (also the CSV export) and a chart.
    const scenarioUrl = `${base}/api/v1/sessions/main/scenarios/${created.id}`;
    expect(await json(`${scenarioUrl}/views`)).toEqual({
      items: [
        { name: 'picked', title: 'Picked rows', kind: 'table' },
        { name: 'picked-chart', title: 'Picked rows, chart', kind: 'chart' },
      ],
    });
    expect((await json<{ spec: { rows: unknown[] } }>(`${scenarioUrl}/views/picked`)).spec.rows).toEqual([['A-3', 100], ['A-1', 12.5]]);
    expect(await (await fetch(`${scenarioUrl}/result?format=csv`)).text()).toBe('label,value\r\nA-3,100\r\nA-1,12.5\r\n');
    expect(await server.stop()).toBe(0);
  }, 360_000);

  it('refuses to serve with --typecheck when the domain has a type error: one block, exit code 2', async () => {
    const broken = copyProject('broken', typeError);
    const { code, output } = await runCli(['serve', '--typecheck', '--domain', join(broken, 'domain.ts'), '--port', String(await freePort()), '--data-dir', join(root, 'broken-data')]);
    expect(code).toBe(2);
    expect(output).toMatch(new RegExp(`^scenarist: the domain ${join(broken, 'domain.ts')} does not type-check \\(1 error in algorithms/top-rows\\.ts\\):\n\n`
      + "algorithms/top-rows\\.ts\\(\\d+,14\\): error TS2322: Type 'string' is not assignable to type 'number'\\.\n$"));
  }, 120_000);

  it('says plainly that a project without "type": "module" needs it', async () => {
    const commonJs = copyProject('commonjs', (dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      delete pkg.type;
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    });
    const { code, output } = await runCli(['serve', '--domain', join(commonJs, 'domain.ts'), '--port', String(await freePort()), '--data-dir', join(root, 'cjs-data')]);
    expect(code).not.toBe(0);
    expect(output).toContain(`scenarist: invalid setting domain: cannot load ${join(commonJs, 'domain.ts')}: ${join(commonJs, 'package.json')} lacks "type": "module", so Node loads the domain as CommonJS; add "type": "module" to it\n`);
  }, 120_000);
});

describe('scenarist dev', () => {
  it('refuses to start on a type error', async () => {
    const broken = copyProject('dev-broken', typeError);
    const { code, output } = await runCli(['dev', '--domain', join(broken, 'domain.ts'), '--port', String(await freePort()), '--data-dir', join(root, 'dev-broken-data')]);
    expect(code).toBe(2);
    expect(output).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(output).not.toContain('scenarist ready');
  }, 120_000);

  it('reloads a changed domain without losing data, and keeps serving the last good one on a type error or a load error', async () => {
    const dir = copyProject('dev', () => {});
    const dev = await startCli('dev', ['--domain', join(dir, 'domain.ts')]);
    const base = dev.base;
    try {
      const algorithms = () => json<{ algorithms: string[] }>(`${base}/api/v1/sessions/main/algorithms`).then((r) => r.algorithms);
      // Each wait on the dev server asks through its reloads, when a request may be refused.
      const servedAlgorithms = () => algorithms().catch(() => undefined);
      expect(await until('the dev server', servedAlgorithms, { within: 120_000, every: 200 })).toEqual(['Top Rows']);
      await uploadSamples(base, 'kept');

      const domainFile = join(dir, 'domain.ts');
      const source = readFileSync(domainFile, 'utf8')
        .replace("import { defineDomain } from 'scenarist';", "import { defineAlgorithm, defineDomain } from 'scenarist';\nconst noop = defineAlgorithm({ name: 'Noop', parameters: {}, run: () => ({ picked: [], total: 0 }) });")
        .replace('algorithms: [topRowsAlgorithm]', 'algorithms: [topRowsAlgorithm, noop]');
      writeFileSync(domainFile, source);
      await until('the new algorithm', async () => (await servedAlgorithms())?.includes('Noop'), { within: 240_000, every: 200 });
      expect(await algorithms()).toEqual(['Top Rows', 'Noop']);
      expect(await json(`${base}/api/v1/sessions/main/data`)).toEqual({ keys: ['sample', 'kept'] });

      writeFileSync(domainFile, `${source}\nexport const wrong: number = 'text';\n`);
      await until('the type error report', () => dev.output().includes('still serving the last version that type-checked'), { within: 240_000, every: 200 });
      expect(dev.output()).toMatch(/does not type-check \(1 error in domain\.ts\):\n\ndomain\.ts\(\d+,14\): error TS2322/);
      expect(dev.output()).toMatch(/scenarist dev: reloaded in \d+ ms/);
      expect(await algorithms()).toEqual(['Top Rows', 'Noop']);

      // Type-checks, but throws as it loads: the next server refuses it before the running one stops.
      writeFileSync(domainFile, `${source}\nthrow new Error('broken at load');\n`);
      await until('the load error report', () => dev.output().includes('the changed domain does not load'), { within: 240_000, every: 200 });
      expect(dev.output()).toContain('broken at load');
      expect(await algorithms()).toEqual(['Top Rows', 'Noop']);
      // Fixed: served again, data kept.
      const reloads = dev.output().match(/reloaded in \d+ ms/g)!.length;
      writeFileSync(domainFile, source);
      await until('the reload after the fix', () => dev.output().match(/reloaded in \d+ ms/g)!.length > reloads, { within: 240_000, every: 200 });
      expect(await algorithms()).toEqual(['Top Rows', 'Noop']);
      expect(await json(`${base}/api/v1/sessions/main/data`)).toEqual({ keys: ['sample', 'kept'] });
      expect(await dev.stop()).toBe(0);
    } finally {
      await dev.stop();
    }
  }, 420_000);
});
