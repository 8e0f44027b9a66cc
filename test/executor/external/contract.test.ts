import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../src/domain/dataset-model.js';
import { loadDomain } from '../../../src/domain/load.js';
import type { DomainRegistry } from '../../../src/domain/registry.js';
import type { RunReport } from '../../../src/domain/run-context.js';
import { containment } from '../../../src/executor/run/external/containment.js';
import { DEFAULT_EXTERNAL_LIMITS, type ExternalLimits } from '../../../src/executor/run/external/external-limits.js';
import type { RunOutcome } from '../../../src/executor/run/job.js';
import { runScenario } from '../../../src/executor/run/run-scenario.js';
import { isAlive, readPids } from './process-table.js';
import { until } from '../../support/until.js';

/**
 * The contract of external algorithms (docs/external-algorithms.md) through the run core every
 * executor uses, with real Python processes: input on stdin, result on stdout, progress and log lines
 * on stderr, and every bound.
 */

const DOMAIN = fileURLToPath(new URL('../../fixtures/external/external-domain.ts', import.meta.url));
const DOMAIN_DIR = fileURLToPath(new URL('../../fixtures/external/', import.meta.url));

const dataset: Dataset = {
  key: 'items',
  kind: 'master',
  createdAt: '2026-01-01T00:00:00.000Z',
  tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5], ['b', 2.5]] } },
};

interface Seen {
  readonly outcome: RunOutcome;
  readonly progress: number[];
  readonly reports: RunReport[];
  readonly lines: string[];
}

let domain: DomainRegistry;
let scratch: string;

beforeAll(async () => {
  domain = await loadDomain(DOMAIN);
  scratch = mkdtempSync(join(tmpdir(), 'scenarist-external-'));
});

function run(algoParams: Record<string, unknown>, options: { algoName?: string; limits?: Partial<ExternalLimits>; signal?: AbortSignal; dataParams?: Record<string, unknown> } = {}): Promise<Seen> {
  const progress: number[] = [];
  const reports: RunReport[] = [];
  const lines: string[] = [];
  const line = (message: string) => void lines.push(message);
  return runScenario(
    { scenarioId: 's', sessionId: 'x', datasetKey: 'items', algoName: options.algoName ?? 'Contract', algoParams, dataParams: options.dataParams ?? {}, deadline: Number.MAX_SAFE_INTEGER, seed: 42 },
    {
      domain,
      datasets: { load: () => Promise.resolve(dataset) },
      progress: (fraction) => progress.push(fraction),
      report: (report) => reports.push(report),
      signal: options.signal ?? new AbortController().signal,
      log: { info: line, warn: line, error: line },
      domainDir: DOMAIN_DIR,
      externalLimits: { ...DEFAULT_EXTERNAL_LIMITS, ...options.limits },
    },
  ).then((outcome) => ({ outcome, progress, reports, lines }));
}

const failed = (seen: Seen) => {
  if (seen.outcome.status !== 'FAILED') throw new Error(`expected FAILED, got ${JSON.stringify(seen.outcome)}`);
  return seen.outcome;
};

describe('an external algorithm', () => {
  it('gets dataset, params, data_params and seed on stdin; its stdout is the result, its KPIs computed in TypeScript', async () => {
    const seen = await run({ mode: 'complete' }, { dataParams: { scale: 2 } });
    expect(seen.outcome).toEqual({ status: 'COMPLETE', resultJson: JSON.stringify({ total: 8, count: 2, seed: 42 }), kpis: { Total: 8 } });
    expect(seen.progress).toEqual([0.5, 0.9]);
    expect(seen.reports).toEqual([{ message: 'half way' }]);
    expect(seen.lines).toEqual(['summing the weights']);
  });

  it('fails ALGORITHM_ERROR naming the first wrong path of a result that is not of its result type', async () => {
    const outcome = failed(await run({ mode: 'invalid' }));
    expect(outcome.code).toBe('ALGORITHM_ERROR');
    expect(outcome.message).toMatch(/result type "totals" at \/total: expected number/);
  });

  it('fails ALGORITHM_ERROR with the exit status and the last stderr lines when it crashes', async () => {
    const outcome = failed(await run({ mode: 'crash' }));
    expect(outcome.code).toBe('ALGORITHM_ERROR');
    expect(outcome.message).toMatch(/exited with status 1; its last stderr lines: .*RuntimeError: the model is infeasible/);
  });

  it('fails ALGORITHM_ERROR on a non-zero exit', async () => {
    const outcome = failed(await run({ mode: 'exit3' }));
    expect(outcome.message).toBe('the program exited with status 3; its last stderr lines: giving up');
  });

  it('fails ALGORITHM_ERROR when it writes no result, or one that is not JSON', async () => {
    expect(failed(await run({ mode: 'silent' })).message).toBe('the program exited 0 but wrote no result on stdout');
    expect(failed(await run({ mode: 'not-json' })).message).toMatch(/^the program's stdout is not one JSON document: /);
  });

  it('fails ALGORITHM_ERROR when its program cannot be found', async () => {
    const outcome = failed(await run({}, { algoName: 'Missing', limits: { memoryBytes: 0 } }));
    expect(outcome.code).toBe('ALGORITHM_ERROR');
    expect(outcome.message).toMatch(/^the program could not be started \(\.\/no-such-program\): .*ENOENT/);
  });

  it('gets a clean environment: what the domain declares, never the service settings or secrets', async () => {
    process.env.SCENARIST_TOKEN_SECRET = 'do-not-leak';
    process.env.SCENARIST_DATABASE_URL = 'postgres://secret@db/prod';
    try {
      const seen = await run({ mode: 'env' });
      if (seen.outcome.status !== 'COMPLETE') throw new Error(seen.outcome.message);
      const env = (JSON.parse(seen.outcome.resultJson) as { env: Record<string, string> }).env;
      expect(env.DECLARED_BY_DOMAIN).toBe('yes');
      expect(Object.keys(env).filter((name) => name.startsWith('SCENARIST_'))).toEqual([]);
      expect(JSON.stringify(env)).not.toMatch(/do-not-leak|secret@db/);
    } finally {
      delete process.env.SCENARIST_TOKEN_SECRET;
      delete process.env.SCENARIST_DATABASE_URL;
    }
  });

  it('fails OUTPUT_LIMIT past external_stdout_limit', async () => {
    const outcome = failed(await run({ mode: 'big-stdout' }, { limits: { stdoutBytes: 1024 * 1024 } }));
    expect(outcome.code).toBe('OUTPUT_LIMIT');
    expect(outcome.message).toMatch(/more than the limit of 1048576 bytes on stdout \(setting external_stdout_limit\)/);
  });

  it('fails LOG_LIMIT on a stderr line longer than external_stderr_line_limit', async () => {
    const outcome = failed(await run({ mode: 'long-line' }, { limits: { stderrLineBytes: 64 * 1024 } }));
    expect(outcome.code).toBe('LOG_LIMIT');
    expect(outcome.message).toMatch(/external_stderr_line_limit/);
  });

  it('fails LOG_LIMIT on more stderr lines a second than external_stderr_rate', async () => {
    const outcome = failed(await run({ mode: 'chatty' }, { limits: { stderrLinesPerSecond: 100 } }));
    expect(outcome.code).toBe('LOG_LIMIT');
    expect(outcome.message).toMatch(/more than 100 stderr lines per second \(setting external_stderr_rate\)/);
  });

  it('fails MEMORY_LIMIT when it runs out of memory under external_memory_limit', async () => {
    const outcome = failed(await run({ mode: 'memory' }, { limits: { memoryBytes: 256 * 1024 * 1024 } }));
    expect(outcome.code).toBe('MEMORY_LIMIT');
    expect(outcome.message).toMatch(/MemoryError/);
  });

  it('is stopped with its whole process group on abort, even when it ignores SIGTERM and forked a child', async () => {
    const pidFile = join(scratch, 'fork.pids');
    const abort = new AbortController();
    const running = run({ mode: 'fork', pid_file: pidFile }, { signal: abort.signal, limits: { killGraceMs: 200 } });
    await until('the program and its child to start', () => readPids(pidFile) !== undefined, { within: 30_000 });
    const pids = readPids(pidFile)!;
    expect(pids.every(isAlive)).toBe(true);
    abort.abort(new Error('cancelled'));
    const outcome = failed(await running);
    expect(outcome.message).toBe('cancelled');
    await until('no process of the program left', () => !pids.some(isAlive), { within: 10_000 });
  });

  it('leaves no process behind when it exits after forking a child that ignores SIGTERM', async () => {
    const pidFile = join(scratch, 'fork-and-exit.pids');
    const seen = await run({ mode: 'fork-and-exit', pid_file: pidFile });
    expect(seen.outcome.status).toBe('COMPLETE');
    const pids = readPids(pidFile)!;
    await until('the forked child to be gone', () => !pids.some(isAlive), { within: 10_000 });
  });

  describe('started in a session of its own by the program (setsid, a double fork)', () => {
    it('runs in a cgroup on this machine: the kernel mechanism the tests below rely on is there', () => {
      expect(containment()).toMatchObject({ kind: 'cgroup' });
    });

    it.each(['setsid', 'daemon'])('is ended on abort (%s): no process of the program is left', async (mode) => {
      const pidFile = join(scratch, `${mode}-abort.pids`);
      const abort = new AbortController();
      const running = run({ mode, pid_file: pidFile }, { signal: abort.signal, limits: { killGraceMs: 200 } });
      await until('the program and its detached process to start', () => readPids(pidFile) !== undefined, { within: 30_000 });
      const pids = readPids(pidFile)!;
      expect(pids.every(isAlive)).toBe(true);
      abort.abort(new Error('cancelled'));
      expect(failed(await running).message).toBe('cancelled');
      await until('no process of the program left', () => !pids.some(isAlive), { within: 10_000 });
    });

    it.each(['setsid-and-exit', 'daemon-and-exit'])('is ended when the program completes (%s)', async (mode) => {
      const pidFile = join(scratch, `${mode}.pids`);
      const seen = await run({ mode, pid_file: pidFile });
      expect(seen.outcome.status).toBe('COMPLETE');
      const pids = readPids(pidFile)!;
      await until('the detached process to be gone', () => !pids.some(isAlive), { within: 10_000 });
    });

    it('is ended when the program fails', async () => {
      const pidFile = join(scratch, 'daemon-and-crash.pids');
      expect(failed(await run({ mode: 'daemon-and-crash', pid_file: pidFile })).message).toMatch(/crashed after starting a daemon/);
      const pids = readPids(pidFile)!;
      await until('the daemon to be gone', () => !pids.some(isAlive), { within: 10_000 });
    });

    it('leaves no cgroup behind', async () => {
      const found = containment();
      if (found.kind !== 'cgroup') throw new Error(`no cgroup containment: ${found.reason}`);
      const ours = () => readdirSync(found.parent).filter((name) => name.startsWith(`scenarist-${process.pid}-`));
      expect(ours()).toEqual([]);
      await run({ mode: 'daemon-and-exit', pid_file: join(scratch, 'cgroup-check.pids') });
      expect(ours()).toEqual([]);
    });
  });
});
