import { describe, expect, it } from 'vitest';
import { RunControl } from '../../src/executor/host/run-control.js';
import { monotoneProgress } from '../../src/executor/run/progress.js';

describe('progress reports', () => {
  it('are clamped to [0, 1], ignore NaN and never decrease', () => {
    const seen: number[] = [];
    const report = monotoneProgress((p) => seen.push(p));
    for (const p of [0.2, 0.1, Number.NaN, -1, 0.5, 7, 0.9]) report(p);
    expect(seen).toEqual([0.2, 0.2, 0.2, 0.2, 0.5, 1, 1]);
  });
});

describe('the shared run control block', () => {
  it('carries progress and the abort request between the two sides of one buffer', () => {
    const main = new RunControl();
    const worker = new RunControl(main.buffer);
    worker.setProgress(0.25);
    expect(main.progress).toBe(0.25);
    expect(worker.abortRequested).toBe(false);
    main.requestAbort('cancel');
    expect(worker.abortRequested).toBe(true);
  });

  it('tells the worker why the run was stopped; the first reason sticks', () => {
    const main = new RunControl();
    const worker = new RunControl(main.buffer);
    expect(worker.stopReason).toBeUndefined();
    main.requestAbort('time-limit');
    main.requestAbort('shutdown');
    expect(worker.stopReason).toBe('time-limit');
  });

  it('wakes the abort watcher of an awaiting run when an abort is requested', async () => {
    const main = new RunControl();
    const worker = new RunControl(main.buffer);
    let calls = 0;
    const aborted = new Promise<string>((resolve) => worker.watchAbort(() => resolve(`woken after ${++calls} call(s)`)));
    expect(calls).toBe(0);
    main.requestAbort('cancel');
    // A bound on a watcher that is never woken, so the test fails with a reason instead of timing out.
    const hung = new Promise<string>((resolve) => setTimeout(() => resolve('not woken within 5 s'), 5_000).unref());
    expect(await Promise.race([aborted, hung])).toBe('woken after 1 call(s)');
    expect(worker.abortRequested).toBe(true);
  });

  it('calls the watcher at once when the abort was requested before watching began', () => {
    const main = new RunControl();
    main.requestAbort('cancel');
    let called = false;
    new RunControl(main.buffer).watchAbort(() => (called = true));
    expect(called).toBe(true);
  });

  it('does not call a watcher whose run is over', async () => {
    const main = new RunControl();
    let called = false;
    const stop = new RunControl(main.buffer).watchAbort(() => (called = true));
    stop();
    main.requestAbort('cancel');
    await new Promise((resolve) => setImmediate(resolve));
    expect(called).toBe(false);
  });

  it('refuses a buffer too small for the layout', () => {
    expect(() => new RunControl(new SharedArrayBuffer(8))).toThrow(RangeError);
  });
});
