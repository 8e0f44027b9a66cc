import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../support/server-process.js';

const SA = 'Simulated Annealing Slotting';
/** More iterations of the example's annealing: a shorter walk (and more reslot moves, not judged here). */
const sa = (iterations: number) => ({ algo_name: SA, algo_params: { iterations } });
const common = { session: 'main', inputs: { datasets: ['example'] }, repeats: 10, kpis: ['Travel Distance'] };

/** `scenarist gate` against a real server process, and over a data folder of its own. */
describe('scenarist gate', () => {
  let server: ServerProcess;
  const scratch = mkdtempSync(join(tmpdir(), 'scenarist-gate-'));
  let files = 0;
  const file = (content: unknown) => {
    const path = join(scratch, `gate-${++files}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  const gate = (path: string, ...flags: string[]) => runCli(['gate', path, '--url', `${server.url}/api/v1`, ...flags]);

  it('exits 0 and prints the table when the candidate passes', async () => {
    const result = await gate(file({ ...common, name: 'cli pass', baseline: sa(10), candidate: sa(2000) }));
    expect(result.output).toMatch(/Travel Distance\s+pass/);
    expect(result.output).toContain('gate "cli pass": pass');
    expect(result.code).toBe(0);
  }, 300_000);

  it('exits 1 when it fails', async () => {
    const result = await gate(file({ ...common, name: 'cli fail', baseline: sa(2000), candidate: sa(10) }));
    expect(result.output).toContain('gate "cli fail": fail');
    expect(result.code).toBe(1);
  }, 300_000);

  it('exits 2 when inconclusive (A/A), and prints JSON with --json', async () => {
    const result = await gate(file({ ...common, name: 'cli a/a', baseline: sa(50), candidate: sa(50) }), '--json');
    expect(result.code).toBe(2);
    expect(result.output).toContain('"verdict": "inconclusive"');
  }, 300_000);

  it('exits 3 on bad input: a refused request, a file that is not JSON, a missing file', async () => {
    const refused = await gate(file({ ...common, name: 'cli bad', baseline: sa(10), candidate: { algo_name: 'No Such Algorithm' } }));
    expect(refused.output).toContain('ALGORITHM_NOT_FOUND');
    expect(refused.code).toBe(3);
    const zero = await gate(file({ ...common, name: 'cli zero', baseline: sa(10), candidate: sa(20), repeats: 0 }));
    expect(zero.output).toContain('INVALID_REQUEST');
    expect(zero.code).toBe(3);
    expect((await gate(file('{ not json'))).code).toBe(3);
    expect((await gate(join(scratch, 'missing.json'))).code).toBe(3);
  }, 300_000);

  it('runs over a data folder of its own without --url', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-gate-local-'));
    try {
      const result = await runCli(['gate', file({ ...common, name: 'local a/a', baseline: { algo_name: 'Instant' }, candidate: { algo_name: 'Instant' } }), '--data-dir', dataDir]);
      expect(result.output).toContain('gate "local a/a": inconclusive');
      expect(result.code).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
