import { describe, expect, it } from 'vitest';
import { CoalescedTask } from '../../src/async/coalesced-task.js';

/** A run that ends when the test says so. */
function controlledWork() {
  const ends: (() => void)[] = [];
  let runs = 0;
  const work = () =>
    new Promise<void>((resolve) => {
      runs++;
      ends.push(resolve);
    });
  return { work, runs: () => runs, endRun: () => ends.shift()!() };
}

describe('CoalescedTask', () => {
  it('runs once for any number of asks made while a run is in flight, then once more', async () => {
    const { work, runs, endRun } = controlledWork();
    const task = new CoalescedTask(work);
    task.ask();
    task.ask();
    task.ask();
    expect(runs()).toBe(1);
    endRun();
    await new Promise((resolve) => setImmediate(resolve));
    // The asks made during the first run made exactly one more.
    expect(runs()).toBe(2);
    endRun();
    await task.idle();
    expect(runs()).toBe(2);
  });

  it('reports a failed run and runs again at the next ask', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const task = new CoalescedTask(async () => {
      runs++;
      if (runs === 1) throw new Error('database away');
    }, (err) => failures.push(err));
    task.ask();
    await task.idle();
    expect(failures).toEqual([new Error('database away')]);
    task.ask();
    await task.idle();
    expect(runs).toBe(2);
    expect(failures).toHaveLength(1);
  });

  it('waits for the run in flight when stopped, and ignores asks after', async () => {
    const { work, runs, endRun } = controlledWork();
    const task = new CoalescedTask(work);
    task.ask();
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    endRun();
    await stopping;
    task.ask();
    expect(runs()).toBe(1);
  });
});
