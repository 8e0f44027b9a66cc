import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAYERS_OFF_ENV, SPEED_LAYERS } from '../../src/config/speed-layers.js';
import { fetchSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { freePort, runCli, startServer, type ServerProcess } from '../support/server-process.js';

/**
 * Scenario runs through the real CLI (`bin/scenarist.js serve`, built into dist/ by the global
 * setup): worker threads from the compiled build, the SQLite file in a temp data directory, signals.
 */
const running: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function serve(dataDir?: string): Promise<{ server: ServerProcess; main: ScenarioClient }> {
  const server = await startServer({ args: ['--workers', '2', '--log-level', 'warn'], ...(dataDir ? { dataDir } : {}) });
  running.push(server);
  return { server, main: new ScenarioClient(fetchSender(server.url), 'main') };
}

describe('scenario runs in a real server process', () => {
  it('creates, runs to COMPLETE with KPIs, resets, re-runs and deletes a scenario', async () => {
    const { main } = await serve();
    const created = await main.created({ tag: 'e2e', algo_name: 'Greedy Slotting' });
    expect(created.status).toBe('CREATED');
    const queued = await main.run(created.id);
    expect(queued.status).toBe(202);
    expect(queued.body.status).toBe('QUEUED');
    expect(await main.waitFor(created.id)).toMatchObject({ status: 'COMPLETE', progress: 1 });
    const done = (await main.get(created.id)).body;
    expect(done.result).not.toBeNull();
    for (const kpi of Object.values(done.kpis)) expect(typeof kpi.value).toBe('number');

    const reset = await main.reset(created.id);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ status: 'CREATED', result: null, progress: 0 });
    expect((await main.run(created.id)).status).toBe(202);
    expect((await main.waitFor(created.id)).status).toBe('COMPLETE');
    expect((await main.get(created.id)).body.kpis).toEqual(done.kpis);

    expect((await main.delete(created.id)).status).toBe(204);
    expect((await main.get(created.id)).status).toBe(404);
  });

  it('marks a failing run FAILED with its message while the run request itself succeeds', async () => {
    const { main, server } = await serve();
    const scenario = await main.started({ tag: 'fails', algo_name: 'Fail', algo_params: { mode: 'raise' } });
    expect((await main.waitFor(scenario.id)).status).toBe('FAILED');
    const failed = (await main.get(scenario.id)).body;
    expect(failed.error?.message).toContain('raised on purpose');
    expect(failed.result).toBeNull();
    // The stack goes to the log with the scenario and session ids, not to the wire.
    await expect.poll(() => server.output()).toContain(scenario.id);
    expect(server.output()).toMatch(/"msg":"scenario run failed"/);
  });

  it('never completes a Sleep run deleted while it is processing', async () => {
    const { main } = await serve();
    const sleeping = await main.started({ tag: 'deleted mid-run', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } });
    await main.waitFor(sleeping.id, ['PROCESSING']);
    expect((await main.delete(sleeping.id)).status).toBe(204);
    const next = await main.started({ tag: 'after it', algo_name: 'Instant' });
    expect((await main.waitFor(next.id)).status).toBe('COMPLETE');
    expect((await main.get(sleeping.id)).status).toBe(404);
    expect((await main.list()).body.map((s) => s.tag)).toEqual(['after it']);
    expect((await main.processing()).body).toBeNull();
  });

  it('re-queues a run interrupted by SIGKILL and completes it after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-e2e-kill-'));
    dirs.push(dataDir);
    const first = await serve(dataDir);
    const scenario = await first.main.started({ tag: 'survives', algo_name: 'Sleep', algo_params: { duration_ms: 1_500 } });
    const queuedBehind = await first.main.started({ tag: 'queued behind', algo_name: 'Instant' });
    await first.main.waitFor(scenario.id, ['PROCESSING']);
    await first.server.stop('SIGKILL');

    const second = await serve(dataDir);
    expect((await second.main.waitFor(scenario.id)).status).toBe('COMPLETE');
    expect((await second.main.waitFor(queuedBehind.id)).status).toBe('COMPLETE');
    const [survivor, behind] = [(await second.main.get(scenario.id)).body, (await second.main.get(queuedBehind.id)).body];
    // Re-queued at its place: it ran before the scenario queued after it.
    expect(Date.parse(behind.started_at!)).toBeGreaterThanOrEqual(Date.parse(survivor.finished_at!));
  });

  it('stops gracefully with a run in progress and finishes it after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-e2e-term-'));
    dirs.push(dataDir);
    const first = await serve(dataDir);
    const scenario = await first.main.started({ tag: 'graceful', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } });
    await first.main.waitFor(scenario.id, ['PROCESSING']);
    expect(await first.server.stop('SIGTERM')).toBe(0);

    const second = await serve(dataDir);
    // Back in the queue, not counted as an interruption: it starts again.
    await second.main.waitFor(scenario.id, ['PROCESSING']);
    expect((await second.main.delete(scenario.id)).status).toBe(204);
  });

  it('refuses a second server on the same data directory with one line and exit code 2; the first keeps its run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-e2e-twice-'));
    dirs.push(dataDir);
    const first = await serve(dataDir);
    const scenario = await first.main.started({ tag: 'owned by the first', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } });
    await first.main.waitFor(scenario.id, ['PROCESSING']);

    const second = await runCli(['serve', '--port', String(await freePort()), '--data-dir', dataDir, '--workers', '1', '--log-level', 'warn']);
    expect(second.code).toBe(2);
    const lines = second.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^scenarist: the data dir .* is in use by another scenarist process \(pid \d+\) holding .*scenarist\.db: .*many processes need PostgreSQL$/);

    // The first server's live run was not re-queued as interrupted, and it still answers.
    expect((await first.main.status(scenario.id)).body).toMatchObject({ status: 'PROCESSING' });
    const row = (await first.main.get(scenario.id)).body;
    expect(row.started_at).not.toBeNull();
    expect((await first.main.delete(scenario.id)).status).toBe(204);
  });
});

describe('a server with every speed layer switched off (what a benchmark compares against)', () => {
  it('answers as with them on: runs a session of scenarios in order to the same KPIs', async () => {
    const server = await startServer({ args: ['--workers', '2', '--log-level', 'warn'], env: { [LAYERS_OFF_ENV]: SPEED_LAYERS.join(',') } });
    running.push(server);
    const main = new ScenarioClient(fetchSender(server.url), 'main');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await main.started({ tag: `layers off ${i}`, algo_name: 'Greedy Slotting' })).id);
    for (const id of ids) expect((await main.waitFor(id)).status).toBe('COMPLETE');
    const [first, ...rest] = await Promise.all(ids.map(async (id) => (await main.get(id)).body));
    for (const other of rest) expect(other.kpis).toEqual(first!.kpis);
    // FIFO per session holds: each run started after the one before it ended.
    for (let i = 1; i < 3; i++) {
      const [before, after] = [await main.get(ids[i - 1]!), await main.get(ids[i]!)];
      expect(Date.parse(after.body.started_at!)).toBeGreaterThanOrEqual(Date.parse(before.body.finished_at!));
    }
  });

  it('refuses an unknown layer name instead of measuring nothing', async () => {
    const { code, output } = await runCli(['serve', '--port', String(await freePort()), '--data-dir', mkdtempSync(join(tmpdir(), 'scenarist-e2e-'))], {
      [LAYERS_OFF_ENV]: 'caches,statement-cahce',
    });
    expect(code).not.toBe(0);
    expect(output).toContain(`${LAYERS_OFF_ENV}: unknown speed layer 'statement-cahce'`);
  });
});

describe('a server started with Node options a worker thread refuses', () => {
  it('loads a dataset on its data thread and runs a scenario on its run thread', async () => {
    // V8's heap flags as an operator sets them, and a process-wide option with its value after it: Node
    // refuses them in a thread, so a pool that handed its threads the process's options started none.
    const server = await startServer({
      nodeFlags: ['--max-old-space-size=512', '--max-semi-space-size=4', '--title', 'scenarist-e2e', '--enable-source-maps'],
      args: ['--workers', '1', '--log-level', 'warn'],
    });
    running.push(server);
    const api = `${server.url}/api/v1`;
    const example = await (await fetch(`${api}/sessions/main/data/example`)).text();
    const loaded = await fetch(`${api}/sessions/main/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: example });
    expect(loaded.status, await loaded.clone().text()).toBe(201);
    const main = new ScenarioClient(fetchSender(server.url), 'main');
    const scenario = await main.started({ tag: 'node flags', algo_name: 'Greedy Slotting' });
    expect(await main.waitFor(scenario.id)).toMatchObject({ status: 'COMPLETE' });
    expect(server.output()).not.toContain('ERR_WORKER_INVALID_EXEC_ARGV');
  });
});
