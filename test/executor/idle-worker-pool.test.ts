import { describe, expect, it } from 'vitest';
import { IdleWorkerPool, type WorkerPool } from '../../src/executor/host/worker-pool.js';
import type { RunOutcome } from '../../src/executor/run/job.js';
import { until } from '../support/until.js';

/** A pool whose runs end when the test says so: the idle logic is what is under test, not piscina. */
function countingPools() {
  const started: { destroyed: boolean; finish: Array<() => void> }[] = [];
  const start = (): WorkerPool => {
    const pool = { destroyed: false, finish: [] as Array<() => void> };
    started.push(pool);
    return {
      run: () => new Promise<RunOutcome>((resolve) => pool.finish.push(() => resolve({ status: 'COMPLETE', resultJson: '{}', kpis: {} }))),
      destroy: async () => {
        pool.destroyed = true;
      },
    };
  };
  return { started, start };
}

const task = () => ({ signal: new AbortController().signal, transferList: [] });

describe('the run threads, started on first use and stopped when idle', () => {
  it('starts no threads until a run or a warm-up asks for them', () => {
    const pools = countingPools();
    const pool = new IdleWorkerPool(pools.start, 50);
    expect(pool.started).toBe(false);
    expect(pools.started).toHaveLength(0);
    pool.warm();
    expect(pool.started).toBe(true);
    expect(pools.started).toHaveLength(1);
    void pool.destroy();
  });

  it('keeps the threads while a run is in flight however long it takes, stops them once idle, and starts new ones for the next run', async () => {
    const pools = countingPools();
    const pool = new IdleWorkerPool(pools.start, 20);
    const run = pool.run({} as never, task());
    // Several idle periods pass with the run in flight: the threads stay.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pools.started[0]!.destroyed).toBe(false);
    pools.started[0]!.finish[0]!();
    await run;
    await until('the idle threads are stopped', () => pools.started[0]!.destroyed);
    expect(pool.started).toBe(false);
    const again = pool.run({} as never, task());
    expect(pools.started).toHaveLength(2);
    pools.started[1]!.finish[0]!();
    await expect(again).resolves.toMatchObject({ status: 'COMPLETE' });
    await pool.destroy();
  });
});
