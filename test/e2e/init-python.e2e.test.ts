import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { REPO_ROOT, runCli, startServer } from '../support/server-process.js';
import { runNodeTest } from '../support/node-test-run.js';

/**
 * `scenarist init --language python`: a project whose first algorithm is a Python program under the
 * external-algorithm contract passes its own tests and is served to a COMPLETE run with its KPI.
 */

const root = mkdtempSync(join(tmpdir(), 'scenarist-init-python-'));
const project = join(root, 'shop');
const ORDERS = 'order_no,customer,amount\nA-1,Ada,12.50\nA-2,Bob,7.25\nA-3,Ada,100\n';

beforeAll(async () => {
  writeFileSync(join(root, 'orders.csv'), ORDERS);
  const { code, output } = await runCli(['init', project, '--from-data', join(root, 'orders.csv'), '--language', 'python']);
  expect(code, output).toBe(0);
  // What `npm install` makes of the project's dependencies, linked to this checkout instead of downloaded.
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'scenarist'));
  for (const name of ['tsx', 'typescript', '@types/node']) symlinkSync(join(REPO_ROOT, 'node_modules', name), join(project, 'node_modules', name));
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a project scaffolded with --language python', () => {
  it('has a Python program reading the contract, and its declaration', () => {
    expect(readFileSync(join(project, 'algorithms/top_rows.py'), 'utf8')).toContain('request = json.load(sys.stdin)');
    expect(readFileSync(join(project, 'algorithms/top-rows.ts'), 'utf8')).toContain("external: { command: ['python3', './algorithms/top_rows.py'] }");
  });

  it('passes its own tests with node --test', async () => {
    const { code, output } = await runNodeTest(project, 'test/top-rows.test.ts');
    expect(code, output).toBe(0);
    expect(output).toContain('# pass 2');
  }, 120_000);

  it('is served type-checked and runs the program to COMPLETE with its KPI', async () => {
    const server = await startServer({ args: ['--typecheck', '--domain', join(project, 'domain.ts'), '--workers', '1', '--log-level', 'warn'] });
    try {
      const api = `${server.url}/api/v1/sessions/main`;
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
      expect(scenario.result).toEqual({ picked: [{ label: 'A-3', value: 100 }, { label: 'A-1', value: 12.5 }], total: 112.5 });
      expect(scenario.kpis?.['Picked amount']?.value).toBe(112.5);
    } finally {
      await server.dispose();
    }
  }, 360_000);
});
