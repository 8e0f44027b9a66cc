import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_DOMAIN } from '../fixtures/external/external-domain-path.js';
import { isAlive, readPids } from '../executor/external/process-table.js';
import { until } from '../support/until.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { BIN, REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';

/**
 * External algorithms on both executors, all real processes: a SQLite server running them on its
 * threads, and a PostgreSQL API node without workers beside a `scenarist worker` process.
 */

const ITEMS = { key: 'items', tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5], ['b', 2.5]] } } };
/** A value only the service's environment holds: the program must never see it. */
const SECRET = 'secret-of-the-service-7f3a';
/**
 * Bounds that make the limits quick to reach. The time limit is the time-limited algorithm's own
 * (5 s); the server's stays long, since it counts from the claim and so includes a thread's start.
 */
const SETTINGS = ['--domain', EXTERNAL_DOMAIN, '--run-time-limit', '120s', '--external-stdout-limit', '1MiB', '--external-kill-grace', '300ms', '--log-level', 'warn'];

interface Deployment {
  readonly api: string;
  close(): Promise<void>;
}

async function sqliteDeployment(): Promise<Deployment> {
  const server = await startServer({ args: [...SETTINGS, '--workers', '2'], env: { SCENARIST_TEST_SECRET: SECRET } });
  return { api: `${server.url}/api/v1`, close: () => server.dispose() };
}

async function postgresDeployment(): Promise<Deployment> {
  const database: TestDatabase = await createTestDatabase('postgres');
  // The database URL reaches both processes through their environment, as a secret would.
  const env = { SCENARIST_DATABASE_URL: database.url, SCENARIST_TEST_SECRET: SECRET };
  const server: ServerProcess = await startServer({ args: [...SETTINGS, '--workers', '0'], env });
  const worker: ChildProcess = spawn(process.execPath, [BIN, 'worker', ...SETTINGS, '--concurrency', '1'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    api: `${server.url}/api/v1`,
    close: async () => {
      if (worker.exitCode === null) worker.kill('SIGKILL');
      await server.dispose();
      await database.drop();
    },
  };
}

const deployments: [string, () => Promise<Deployment>][] = [['SQLite with worker threads', sqliteDeployment]];
if (DIALECTS.includes('postgres')) deployments.push(['PostgreSQL with a scenarist worker process', postgresDeployment]);

describe.each(deployments)('external algorithms on %s', (_name, start) => {
  let deployment: Deployment;
  let sid: string;
  let scratch: string;
  let count = 0;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${deployment.api}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  };

  /** Creates and runs a scenario of the Contract program; resolves with its id. */
  const runContract = async (params: Record<string, unknown>, algoName = 'Contract') => {
    const created = await call('POST', `/sessions/${sid}/scenarios`, { tag: `run ${++count}`, dataset_key: 'items', algo_name: algoName, algo_params: params });
    const id = created.id as string;
    await call('POST', `/sessions/${sid}/scenarios/${id}/run`);
    return id;
  };

  const settled = async (id: string) => {
    let scenario: Record<string, unknown> = {};
    await until(
      `scenario ${id} to settle`,
      async () => {
        scenario = await call('GET', `/sessions/${sid}/scenarios/${id}`);
        return scenario.status === 'COMPLETE' || scenario.status === 'FAILED';
      },
      { within: 60_000 },
    );
    return scenario as { status: string; result: unknown; kpis: Record<string, { value: number | null }>; error: { message: string; code: string } | null };
  };

  beforeAll(async () => {
    deployment = await start();
    scratch = mkdtempSync(join(tmpdir(), 'scenarist-external-e2e-'));
    const list = (await call('POST', '/sessions', { display_name: 'external' })) as { sessions: { id: string; display_name: string }[] };
    sid = list.sessions.find((s) => s.display_name === 'external')!.id;
    await call('POST', `/sessions/${sid}/data/from-json`, ITEMS);
  }, 120_000);

  afterAll(async () => {
    await deployment?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('is listed with its parameters like any algorithm', async () => {
    const list = (await call('GET', `/sessions/${sid}/algorithms`)) as { items: { name: string; description: string | null }[] };
    expect(list.items.map((item) => item.name)).toEqual(['Contract', 'Contract (time-limited)', 'Missing']);
    const parameters = (await call('GET', `/sessions/${sid}/algorithms/Contract/parameters`)) as { parameters: { name: string }[] };
    expect(parameters.parameters.map((p) => p.name)).toEqual(['mode', 'pid_file', 'go_file']);
  });

  it('completes with its KPI, its progress seen live in the session events', async () => {
    const events = new AbortController();
    const stream = await fetch(`${deployment.api}/sessions/${sid}/events`, { signal: events.signal });
    const goFile = join(scratch, 'go');
    const id = await runContract({ mode: 'wait', go_file: goFile });
    const reader = stream.body!.getReader();
    let text = '';
    const seen = (): boolean =>
      text.split('\n').some((line) => {
        if (!line.startsWith('data: ')) return false;
        const event = JSON.parse(line.slice(6)) as { type?: string; scenario_id?: string; progress?: number; report?: { message?: string } };
        return event.type === 'scenario.progress' && event.scenario_id === id && event.progress === 0.5 && event.report?.message === 'waiting for the go file';
      });
    try {
      while (!seen()) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the event stream ended before the progress event:\n${text}`);
        text += new TextDecoder().decode(value);
      }
    } finally {
      events.abort();
    }
    writeFileSync(goFile, '');
    const scenario = await settled(id);
    expect(scenario.status).toBe('COMPLETE');
    expect(scenario.result).toEqual({ total: 4, count: 2 });
    expect(scenario.kpis.Total?.value).toBe(4);
  }, 90_000);

  it('runs an experiment over a data parameter to COMPLETE, its KPI summarised per axis value', async () => {
    const created = await call('POST', `/sessions/${sid}/experiments`, {
      name: 'scales',
      algo_name: 'Contract',
      dataset_key: 'items',
      algo_params: { mode: 'complete' },
      axes: { 'data_params.scale': [1, 2] },
      run: true,
    });
    const eid = created.id as string;
    type Experiment = {
      counts: Record<string, number>;
      summary: { axes: { values: { value: unknown; kpis: Record<string, { mean: number }> }[] }[]; best: Record<string, { value: number }> } | null;
    };
    let experiment = {} as Experiment;
    await until(
      `experiment ${eid} to finish`,
      async () => {
        experiment = (await call('GET', `/sessions/${sid}/experiments/${eid}`)) as unknown as Experiment;
        return experiment.counts.COMPLETE! + experiment.counts.FAILED! === 2;
      },
      { within: 60_000 },
    );
    expect(experiment.counts.COMPLETE).toBe(2);
    // The program multiplies the weights' sum (4) by the scale; the KPI is computed in TypeScript from its result.
    expect(experiment.summary!.axes[0]!.values.map((v) => [v.value, v.kpis.Total?.mean])).toEqual([
      [1, 4],
      [2, 8],
    ]);
    expect(experiment.summary!.best.Total?.value).toBe(8);
  }, 90_000);

  it('fails ALGORITHM_ERROR naming the wrong path of an invalid result, and on a crash', async () => {
    const invalid = await settled(await runContract({ mode: 'invalid' }));
    expect(invalid.error).toEqual({ code: 'ALGORITHM_ERROR', message: expect.stringMatching(/at \/total: expected number/) as unknown });
    const crash = await settled(await runContract({ mode: 'crash' }));
    expect(crash.error).toEqual({ code: 'ALGORITHM_ERROR', message: expect.stringMatching(/exited with status 1.*the model is infeasible/) as unknown });
    const exit = await settled(await runContract({ mode: 'exit3' }));
    expect(exit.error?.message).toBe('the program exited with status 3; its last stderr lines: giving up');
  }, 90_000);

  it('fails OUTPUT_LIMIT past the external_stdout_limit setting', async () => {
    const scenario = await settled(await runContract({ mode: 'big-stdout' }));
    expect(scenario.error?.code).toBe('OUTPUT_LIMIT');
  }, 90_000);

  it('runs the program in a clean environment', async () => {
    const scenario = await settled(await runContract({ mode: 'env' }));
    const env = (scenario.result as { env: Record<string, string> }).env;
    expect(env.DECLARED_BY_DOMAIN).toBe('yes');
    expect(JSON.stringify(env)).not.toContain(SECRET);
    expect(JSON.stringify(env)).not.toMatch(/postgres:|SCENARIST_/);
  }, 90_000);

  it('cancels a program that ignores SIGTERM and forked a child: no process of it is left', async () => {
    const pidFile = join(scratch, `fork-${count}.pids`);
    const id = await runContract({ mode: 'fork', pid_file: pidFile });
    await until('the program and its child to start', () => readPids(pidFile) !== undefined, { within: 60_000 });
    const pids = readPids(pidFile)!;
    await call('POST', `/sessions/${sid}/scenarios/${id}/cancel`);
    const scenario = await settled(id);
    expect(scenario.error?.code).toBe('CANCELLED');
    await until('no process of the program left', () => !pids.some(isAlive), { within: 30_000 });
  }, 90_000);

  it('stops a program that ignores SIGTERM at the time limit: FAILED TIME_LIMIT, no process left', async () => {
    const pidFile = join(scratch, `term-${count}.pids`);
    const id = await runContract({ mode: 'ignore-term', pid_file: pidFile }, 'Contract (time-limited)');
    await until('the program to start', () => readPids(pidFile) !== undefined, { within: 60_000 });
    const pids = readPids(pidFile)!;
    const scenario = await settled(id);
    expect(scenario.error?.code).toBe('TIME_LIMIT');
    await until('no process of the program left', () => !pids.some(isAlive), { within: 30_000 });
  }, 90_000);

  // The program starts a process in a session of its own (setsid, or a daemon's double fork) that
  // ignores SIGTERM: no signal to the program's process group reaches it, the run's cgroup does.
  it('cancels a program whose grandchild called setsid: no process of it is left', async () => {
    const pidFile = join(scratch, `setsid-${count}.pids`);
    const id = await runContract({ mode: 'setsid', pid_file: pidFile });
    await until('the program and its detached grandchild to start', () => readPids(pidFile) !== undefined, { within: 60_000 });
    const pids = readPids(pidFile)!;
    await call('POST', `/sessions/${sid}/scenarios/${id}/cancel`);
    expect((await settled(id)).error?.code).toBe('CANCELLED');
    await until('no process of the program left', () => !pids.some(isAlive), { within: 30_000 });
  }, 90_000);

  it('stops a program that started a daemon at the time limit: no process of it is left', async () => {
    const pidFile = join(scratch, `daemon-${count}.pids`);
    const id = await runContract({ mode: 'daemon', pid_file: pidFile }, 'Contract (time-limited)');
    await until('the program and its daemon to start', () => readPids(pidFile) !== undefined, { within: 60_000 });
    const pids = readPids(pidFile)!;
    expect((await settled(id)).error?.code).toBe('TIME_LIMIT');
    await until('no process of the program left', () => !pids.some(isAlive), { within: 30_000 });
  }, 90_000);

  it('ends the daemon of a program that completed', async () => {
    const pidFile = join(scratch, `daemon-and-exit-${count}.pids`);
    const scenario = await settled(await runContract({ mode: 'daemon-and-exit', pid_file: pidFile }));
    expect(scenario.status).toBe('COMPLETE');
    const pids = readPids(pidFile)!;
    await until('the daemon to be gone', () => !pids.some(isAlive), { within: 30_000 });
  }, 90_000);
});
