import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliModule } from '../../bin/cli-module.js';
import { fetchSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';

const dirs: string[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-bundle-'));
  dirs.push(dir);
  return dir;
}

describe('which CLI module bin/scenarist.js starts', () => {
  /** A fake checkout with the given files, each modified at the given second. */
  function checkout(files: Record<string, number>): string {
    const root = scratch();
    for (const [file, second] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '');
      utimesSync(join(root, file), second, second);
    }
    return pathToFileURL(`${root}/`).href;
  }

  it('starts the bundle when it is at least as new as the compile', () => {
    const root = checkout({ 'dist/.tsbuildinfo': 1_000, 'dist/bundle/cli.js': 1_000, 'dist/src/cli.js': 1_000 });
    expect(cliModule(root)).toBe(new URL('dist/bundle/cli.js', root).href);
  });

  it('starts the compiled modules when there is no bundle, or when a compile came after it', () => {
    const none = checkout({ 'dist/.tsbuildinfo': 1_000, 'dist/src/cli.js': 1_000 });
    expect(cliModule(none)).toBe(new URL('dist/src/cli.js', none).href);
    const stale = checkout({ 'dist/.tsbuildinfo': 2_000, 'dist/bundle/cli.js': 1_000, 'dist/src/cli.js': 2_000 });
    expect(cliModule(stale)).toBe(new URL('dist/src/cli.js', stale).href);
  });

  it('starts the bundle of this checkout, which the test setup has just built', () => {
    expect(cliModule(pathToFileURL(`${REPO_ROOT}/`))).toMatch(/\/dist\/bundle\/cli\.js$/);
  });
});

describe('where the example domain is imported from', () => {
  it('imports the bundled example (which the test setup has just built) and finds its files from its compiled modules', async () => {
    const load = (await import(pathToFileURL(join(REPO_ROOT, 'dist/src/domain/load.js')).href)) as typeof import('../../src/domain/load.js');
    expect(load.domainModuleUrl(load.EXAMPLE_DOMAIN)).toBe(pathToFileURL(join(REPO_ROOT, 'dist/bundle/example-domain.js')).href);
    expect(load.domainHomeUrl(load.EXAMPLE_DOMAIN)).toBe(pathToFileURL(join(REPO_ROOT, 'dist/examples/warehouse/index.js')).href);
    const domain = await load.loadDomain(load.EXAMPLE_DOMAIN);
    expect(domain.algorithmNames).toContain('Local Search (Python)');
  });
});

describe("the bundle's chunks", () => {
  it("keep stdlib's paired tests in a chunk of their own that only a dynamic import reaches, so a start never loads them", () => {
    const folder = join(REPO_ROOT, 'dist/bundle');
    const files = readdirSync(folder).filter((name) => name.endsWith('.js'));
    const text = new Map(files.map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
    // esbuild heads each bundled module with a comment naming its file.
    const holders = files.filter((name) => text.get(name)!.includes('// node_modules/@stdlib/stats-ttest/'));
    expect(holders).toHaveLength(1);
    const chunk = holders[0]!;
    expect(chunk).toMatch(/^paired-tests-/);
    const importers = files.filter((name) => name !== chunk && text.get(name)!.includes(`"./${chunk}"`));
    expect(importers.length).toBeGreaterThan(0);
    for (const name of importers) expect(text.get(name), name).not.toContain(`from "./${chunk}"`);
    for (const name of importers) expect(text.get(name), name).toContain(`import("./${chunk}")`);
  });
});

describe('the bundled CLI', () => {
  /** A launcher that runs the bundle itself, whatever bin/scenarist.js would choose. */
  function bundleLauncher(): string {
    const launcher = join(scratch(), 'launch-bundle.mjs');
    const bundle = pathToFileURL(join(REPO_ROOT, 'dist/bundle/cli.js')).href;
    writeFileSync(launcher, `const { main } = await import(${JSON.stringify(bundle)});\nprocess.exit(await main(process.argv.slice(2)));\n`);
    return launcher;
  }

  it('serves what sits beside its modules, runs scenarios on threads, ingests on threads and answers domain parameter errors', async () => {
    const server = await startServer({ entry: bundleLauncher(), args: ['--workers', '1', '--log-level', 'info'] });
    running.push(server);
    // Files found from a module's own location: Swagger UI's static files, the dashboard, the example domain.
    expect((await fetch(`${server.url}/docs/static/swagger-ui.css`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/ui/`)).status).toBe(200);
    const health = (await (await fetch(`${server.url}/health`)).json()) as { sessions: string[] };
    expect(health.sessions).toEqual(['main']);

    // A run on a worker thread, started from its own entry file.
    const main = new ScenarioClient(fetchSender(server.url), 'main');
    const scenario = await main.started({ tag: 'bundled', algo_name: 'Instant' });
    expect((await main.waitFor(scenario.id)).status).toBe('COMPLETE');
    // Its threads start on the bundled thread entry (a few files to load, not the compiled modules).
    const threadStarts = server
      .output()
      .split('\n')
      .filter((line) => line.includes('run threads starting'))
      .map((line) => (JSON.parse(line) as { entry: string }).entry);
    expect(threadStarts.length).toBeGreaterThan(0);
    for (const entry of threadStarts) expect(entry).toBe(pathToFileURL(join(REPO_ROOT, 'dist/bundle/worker-entry.js')).href);

    // The example domain is imported from its bundle; its Python program is still found beside its
    // compiled modules (a relative command resolves against the domain's own folder).
    const python = await main.started({ tag: 'bundled-python', algo_name: 'Local Search (Python)' });
    const pythonRun = await main.waitFor(python.id);
    expect(pythonRun.status, JSON.stringify(pythonRun)).toBe('COMPLETE');

    // An error the bundled example threw names the example's own frames (in its bundle), not the server's.
    const failing = await main.started({ tag: 'bundled-fail', algo_name: 'Fail' });
    expect((await main.waitFor(failing.id)).status).toBe('FAILED');
    const logs = (await (await fetch(`${server.url}/api/v1/sessions/main/scenarios/${failing.id}/logs`)).json()) as { error: { stack: string[] } };
    expect(logs.error.stack.length).toBeGreaterThan(0);
    for (const frame of logs.error.stack) expect(frame).toContain('dist/bundle/example-domain.js:');

    // A from-json body ingested on an upload thread.
    const api = `${server.url}/api/v1/sessions/main`;
    const form = (await (await fetch(`${api}/data/example`)).text()).replace('"key":"example"', '"key":"copied"');
    const stored = await fetch(`${api}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form });
    expect(stored.status).toBe(201);

    // The domain's parameter declarations and the server share one ParameterError: a bad value is a 400 naming it.
    const refused = await main.create({ tag: 'bad', algo_name: 'Greedy Slotting', algo_params: { depot_x: 'far' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('depot_x');
  });
});
