import { afterAll, describe, expect, it } from 'vitest';
import { fetchSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { freePort, runCli, startServer, type ServerProcess } from '../support/server-process.js';

/**
 * A SQLite data dir has one scenarist process: any second one (whatever its command and flags) is
 * refused at start-up, before it touches the store, and the first one goes on as if nothing happened.
 */
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.dispose()));
});

describe('one scenarist process per SQLite store', () => {
  it('refuses every second process on a live data dir; the first keeps serving and loses nothing', async () => {
    const first = await startServer({ args: ['--workers', '1', '--log-level', 'warn'] });
    running.push(first);
    const main = new ScenarioClient(fetchSender(first.url), 'main');
    const before = await main.started({ tag: 'before', algo_name: 'Greedy Slotting' });
    expect((await main.waitFor(before.id)).status).toBe('COMPLETE');

    const dataDir = ['--data-dir', first.dataDir];
    const seconds = [
      ['serve', '--port', String(await freePort()), '--workers', '0', ...dataDir],
      ['serve', '--port', String(await freePort()), '--workers', '2', ...dataDir],
      ['worker', ...dataDir],
      ['migrate', ...dataDir],
    ];
    for (const args of seconds) {
      const { code, output } = await runCli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(output).toContain(`data dir ${first.dataDir}`);
      expect(output).toContain(`pid ${first.child.pid}`);
      expect(output).toContain('many processes need PostgreSQL');
      expect(output).not.toContain('--workers 0');
    }

    // Still serving: the earlier run is intact, and a new run completes.
    expect((await main.get(before.id)).body).toMatchObject({ status: 'COMPLETE', tag: 'before' });
    const after = await main.started({ tag: 'after', algo_name: 'Greedy Slotting' });
    expect((await main.waitFor(after.id)).status).toBe('COMPLETE');
    expect((await main.list()).body.map((s) => s.tag).sort()).toEqual(['after', 'before']);
    // Tokens are managed beside the running server: they are rows it reads, not run state.
    const tokens = await runCli(['token', 'list', ...dataDir]);
    expect(tokens.code, tokens.output).toBe(0);
  }, 180_000);

  it('lets a new process open the store once the holder has stopped', async () => {
    const first = await startServer({ args: ['--workers', '1', '--log-level', 'warn'] });
    running.push(first);
    expect(await first.stop()).toBe(0);
    const next = await startServer({ args: ['--workers', '1', '--log-level', 'warn'], dataDir: first.dataDir });
    running.push(next);
    const main = new ScenarioClient(fetchSender(next.url), 'main');
    const scenario = await main.started({ tag: 'next', algo_name: 'Greedy Slotting' });
    expect((await main.waitFor(scenario.id)).status).toBe('COMPLETE');
  }, 120_000);
});
