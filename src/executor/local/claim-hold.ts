/**
 * Whether the run threads may claim their session's next run as they record a run's end (see
 * `run-chain.ts`): an Int32 in shared memory, counting the reasons to hold claims, which the main
 * thread raises while it cancels runs or deletes a session (so a run being cancelled is not claimed
 * meanwhile) and for good once the executor closes. The threads read it before each claim, without a
 * message. A claim already under way when it rises is caught by the executor when it hears of the
 * claimed run (it stops that run at once).
 */
export class ClaimHold {
  private readonly count: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.count = new Int32Array(buffer, 0, 1);
  }

  /** Holds claims until the returned function is called (once). */
  hold(): () => void {
    Atomics.add(this.count, 0, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      Atomics.sub(this.count, 0, 1);
    };
  }

  /** Thread side: whether a claim must wait for the main thread. */
  get held(): boolean {
    return Atomics.load(this.count, 0) > 0;
  }
}
