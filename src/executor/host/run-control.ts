import type { StopReason } from '../queue/record-outcome.js';

/**
 * A run's control block: 16 bytes of shared memory between the executor (main thread) and the worker
 * thread running the algorithm. Progress is a Float64 the worker writes and the main thread reads
 * without any message; the abort flag is an Int32 the main thread sets, which the worker sees even in
 * the middle of a synchronous CPU loop (at the algorithm's next `ctx.progress()`). Why the run was
 * stopped is a second Int32, written before the flag (the first reason sticks), so that the thread
 * can tell a cancel from a time limit or a shutdown.
 */

const BYTES = 16;
const STATE_OFFSET = 8; // bytes: the Float64 progress comes first
const REASON_OFFSET = 12;
/** Stop reasons as stored in the block (0: none). */
const REASONS: readonly StopReason[] = ['cancel', 'shutdown', 'time-limit'];
const RUNNING = 0;
const ABORT = 1;
/** Written by the worker when the run is over, to release its abort watcher. */
const DONE = 2;

/** The one slice of `Atomics.waitAsync` (ES2024, in Node 20) this module uses. */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };

export class RunControl {
  private readonly progressView: Float64Array;
  private readonly state: Int32Array;
  private readonly reason: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(BYTES)) {
    if (buffer.byteLength < BYTES) throw new RangeError(`a run control buffer needs ${BYTES} bytes`);
    this.progressView = new Float64Array(buffer, 0, 1);
    this.state = new Int32Array(buffer, STATE_OFFSET, 1);
    this.reason = new Int32Array(buffer, REASON_OFFSET, 1);
  }

  get progress(): number {
    return this.progressView[0]!;
  }

  /** Worker side: the latest (already clamped, monotone) progress. */
  setProgress(fraction: number): void {
    this.progressView[0] = fraction;
  }

  /**
   * Main side: asks the run to stop for `reason` (the first reason sticks); wakes the worker's watcher
   * for algorithms awaiting I/O.
   */
  requestAbort(reason: StopReason): void {
    Atomics.compareExchange(this.reason, 0, 0, REASONS.indexOf(reason) + 1);
    Atomics.store(this.state, 0, ABORT);
    Atomics.notify(this.state, 0);
  }

  /** Why the main thread stopped the run, if it did. */
  get stopReason(): StopReason | undefined {
    return REASONS[Atomics.load(this.reason, 0) - 1];
  }

  get abortRequested(): boolean {
    return Atomics.load(this.state, 0) === ABORT;
  }

  /**
   * Worker side: calls `onAbort` when the main thread requests an abort while the run awaits
   * something (a synchronous loop notices at its next progress report instead). Returns the function
   * that ends the watch when the run is over.
   */
  watchAbort(onAbort: () => void): () => void {
    let over = false;
    const check = () => {
      if (!over && this.abortRequested) onAbort();
    };
    const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
    if (waitAsync === undefined) {
      const timer = setInterval(check, 50);
      return () => {
        over = true;
        clearInterval(timer);
      };
    }
    const wait = waitAsync(this.state, 0, RUNNING);
    if (!wait.async) {
      check();
      return () => {
        over = true;
      };
    }
    void wait.value.then(check);
    return () => {
      over = true;
      // Releases the pending wait, so nothing of a finished run stays behind.
      Atomics.compareExchange(this.state, 0, RUNNING, DONE);
      Atomics.notify(this.state, 0);
    };
  }
}
