import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { runCli, startServer } from '../support/server-process.js';

/**
 * `scenarist init --language python`: a project with no TypeScript (the domain manifest
 * scenarist.domain.json and a Python program) passes its own Python tests and is served from the
 * manifest: its algorithm listed with its parameters, a scenario run to COMPLETE with the KPI the
 * program returns, and the manifest's result view drawn.
 */

const root = mkdtempSync(join(tmpdir(), 'scenarist-init-python-'));
const project = join(root, 'shop');
const ORDERS = 'order_no,customer,amount\nA-1,Ada,12.50\nA-2,Bob,7.25\nA-3,Ada,100\n';

beforeAll(async () => {
  writeFileSync(join(root, 'orders.csv'), ORDERS);
  const { code, output } = await runCli(['init', project, '--from-data', join(root, 'orders.csv'), '--language', 'python']);
  expect(code, output).toBe(0);
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file of the project, relative to it. */
function filesOf(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesOf(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]));
}

describe('a project scaffolded with --language python', () => {
  it('has no TypeScript: a manifest, a Python program reading the contract and its unittest', () => {
    expect(filesOf(project).sort()).toEqual(['.gitignore', '.npmrc', 'README.md', 'algorithms/top_rows.py', 'package.json', 'sample/orders.csv', 'scenarist.domain.json', 'test/test_top_rows.py']);
    expect(readFileSync(join(project, 'algorithms/top_rows.py'), 'utf8')).toContain('request = json.load(sys.stdin)');
    const manifest = JSON.parse(readFileSync(join(project, 'scenarist.domain.json'), 'utf8')) as { algorithms: { command: string[] }[] };
    expect(manifest.algorithms[0]!.command).toEqual(['python3', './algorithms/top_rows.py']);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies?: unknown };
    expect(pkg.scripts.start).toBe('scenarist serve --domain ./scenarist.domain.json');
    expect(pkg.devDependencies).toBeUndefined();
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('npm start -- --port 8060');
  });

  it('passes its own Python tests', () => {
    const run = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'test'], { cwd: project, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('Ran 2 tests');
  });

  it('is served from its manifest: the algorithm and its parameters listed, a run COMPLETE with its KPI, its view drawn', async () => {
    const server = await startServer({ args: ['--domain', join(project, 'scenarist.domain.json'), '--workers', '1', '--log-level', 'info'] });
    try {
      // What the README promises: the server prints the dashboard's address.
      expect(server.output()).toContain(`scenarist ready: dashboard ${server.url}/api/v1/ui/`);
      const api = `${server.url}/api/v1/sessions/main`;
      const algorithms = (await (await fetch(`${api}/algorithms`)).json()) as { items: { name: string; description: string | null }[] };
      expect(algorithms.items).toEqual([expect.objectContaining({ name: 'Top Rows', description: 'The rows of orders with the highest amount (a Python program).' })]);
      const parameters = (await (await fetch(`${api}/algorithms/Top%20Rows/parameters`)).json()) as { parameters: { name: string; type: string; default?: unknown; min?: unknown }[] };
      expect(parameters.parameters).toEqual([expect.objectContaining({ name: 'count', type: 'integer', default: 10, min: 1 })]);

      const created = (await (
        await fetch(`${api}/scenarios`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tag: 'top', dataset_key: 'sample', algo_name: 'Top Rows', algo_params: { count: 2 } }),
        })
      ).json()) as { id: string };
      expect((await fetch(`${api}/scenarios/${created.id}/run`, { method: 'POST' })).status).toBe(202);
      let scenario: { status?: string; result?: unknown; kpis?: Record<string, { value: number | null }>; error?: unknown } = {};
      await until(
        'the run to settle',
        async () => {
          scenario = (await (await fetch(`${api}/scenarios/${created.id}`)).json()) as typeof scenario;
          return scenario.status === 'COMPLETE' || scenario.status === 'FAILED';
        },
        { within: 120_000 },
      );
      expect(scenario.error ?? null).toBeNull();
      expect(scenario.result).toEqual({ picked: [{ label: 'A-3', value: 100 }, { label: 'A-1', value: 12.5 }], total: 112.5, kpis: { 'Picked amount': 112.5 } });
      expect(scenario.kpis?.['Picked amount']?.value).toBe(112.5);

      const view = (await (await fetch(`${api}/scenarios/${created.id}/views/picked`)).json()) as { spec?: { rows?: unknown[][] } };
      expect(view.spec?.rows).toEqual([['A-3', 100], ['A-1', 12.5]]);
    } finally {
      await server.dispose();
    }
  }, 360_000);

  it('stops serving with one line naming the manifest and the path of a mistake in it', async () => {
    const file = join(project, 'scenarist.domain.json');
    const broken = JSON.parse(readFileSync(file, 'utf8')) as { algorithms: { parameters: { count: { default: unknown } } }[] };
    broken.algorithms[0]!.parameters.count.default = 2.5;
    const badFile = join(root, 'bad.domain.json');
    writeFileSync(badFile, JSON.stringify(broken));
    const { code, output } = await runCli(['serve', '--domain', badFile, '--data-dir', join(root, 'bad-data'), '--port', '1']);
    expect(code).not.toBe(0);
    expect(output).toContain(`${badFile}: algorithms[0].parameters.count.default: must be an integer, got 2.5`);
  }, 120_000);
});
