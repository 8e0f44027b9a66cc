import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WriteGate } from '../../src/store/sqlite/write-gate.js';

/** The compiled gate, for threads (which do not run the TypeScript sources). */
const COMPILED_GATE = new URL('../../dist/src/store/sqlite/write-gate.js', import.meta.url).href;

/**
 * A thread that takes the gate over `buffer` (or the process's gate when none), reports it, and leaves
 * when `control[0]` becomes 1. `control[1]` counts leaves (each counted just before it happens): a
 * thread that enters reports the count it found.
 */
function contender(name: string, buffer: SharedArrayBuffer | undefined, control: SharedArrayBuffer, waitLimitMs: number): Worker {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { WriteGate } = await import(workerData.module);
      const gate = workerData.buffer ? new WriteGate(workerData.buffer) : WriteGate.ofProcess();
      if (gate === undefined) return parentPort.postMessage({ found: false });
      const control = new Int32Array(workerData.control);
      const entered = gate.enter(workerData.waitLimitMs);
      parentPort.postMessage({ found: true, entered, leavesBefore: Atomics.load(control, 1) });
      Atomics.wait(control, 0, 0);
      // Counted before leaving: a waiter woken by the leave must find it counted.
      Atomics.add(control, 1, 1);
      const left = gate.leave();
      parentPort.postMessage({ left });
    })();`;
  return new Worker(code, { eval: true, name, workerData: { module: COMPILED_GATE, buffer, control, waitLimitMs } });
}

const nextMessage = async <T>(worker: Worker): Promise<T> => (await once(worker, 'message'))[0] as T;
const release = (control: SharedArrayBuffer) => {
  const cell = new Int32Array(control);
  Atomics.store(cell, 0, 1);
  Atomics.notify(cell, 0);
};

describe("SQLite's write gate between threads", () => {
  const workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.terminate()));
  });

  it('lets a second writer in when the first leaves, not before', async () => {
    const buffer = new SharedArrayBuffer(4);
    const first = new SharedArrayBuffer(8);
    const a = contender('a', buffer, first, 60_000);
    workers.push(a);
    expect(await nextMessage(a)).toEqual({ found: true, entered: true, leavesBefore: 0 });
    // b shares a's leave counter, so it reports how many leaves happened before it got in.
    const b = contender('b', buffer, first, 60_000);
    workers.push(b);
    const bEntered = nextMessage<{ entered: boolean; leavesBefore: number }>(b);
    // However long b has waited by now, it is still waiting: a holds the gate.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const aLeft = nextMessage<{ left: boolean }>(a);
    release(first);
    expect(await aLeft).toEqual({ left: true });
    expect(await bEntered).toMatchObject({ entered: true, leavesBefore: 1 });
  });

  it('is taken over from a holder that never leaves (a thread ended while it wrote), and is free again after', async () => {
    const buffer = new SharedArrayBuffer(4);
    const holder = contender('holder', buffer, new SharedArrayBuffer(8), 0);
    workers.push(holder);
    expect(await nextMessage(holder)).toMatchObject({ entered: true });
    await holder.terminate();
    const control = new SharedArrayBuffer(8);
    const next = contender('next', buffer, control, 1);
    workers.push(next);
    expect(await nextMessage(next)).toMatchObject({ entered: true });
    const left = nextMessage<{ left: boolean }>(next);
    release(control);
    expect(await left).toEqual({ left: true });
    // Free: this thread gets it at once.
    const gate = new WriteGate(buffer);
    expect(gate.enter(0)).toBe(true);
    expect(gate.leave()).toBe(true);
  });

  it("is the process's own in the threads the main thread starts", async () => {
    const gate = WriteGate.ofProcess();
    expect(gate, 'the main thread makes the gate').toBeDefined();
    expect(gate!.enter()).toBe(true);
    const control = new SharedArrayBuffer(8);
    // The thread finds the same cell held by this thread, and takes it over after its short wait.
    const thread = contender('inherits', undefined, control, 1);
    workers.push(thread);
    expect(await nextMessage(thread)).toMatchObject({ found: true, entered: true });
    expect(gate!.leave(), 'the thread took it over').toBe(false);
    release(control);
  });
});
