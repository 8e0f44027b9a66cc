import { ScenaristError } from '../../errors.js';

/** What a client that got `UPLOAD_BUSY` is told to wait before trying again (`Retry-After`, seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** The 503 of an upload that found every thread busy: the route sends `retryAfterSeconds` as `Retry-After`. */
export class UploadBusyError extends ScenaristError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor(detail: string) {
    super('UPLOAD_BUSY', detail);
  }
}

interface Waiter {
  readonly grant: () => void;
}

/**
 * Admission to the upload threads: at most `slots` uploads work at once; the next ones wait in a short
 * first-come queue, each for at most `waitMs`, and are answered 503 (`UploadBusyError`) when the wait
 * runs out or `maxWaiting` already wait. So however slow the uploads that hold every thread, a new one
 * is answered within `waitMs`: it runs, or it is told when to come back.
 */
export class UploadSlots {
  private busy = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
    private readonly waitMs: number,
  ) {}

  /**
   * Resolves with the function that gives the slot back, once one is free; rejects with
   * `UploadBusyError`, or with the signal's reason when it aborts while waiting.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.busy < this.slots) return Promise.resolve(this.take());
    if (this.waiting.length >= this.maxWaiting || this.waitMs === 0) return Promise.reject(this.full());
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve(this.take());
        },
      };
      const onAbort = () => {
        leave();
        const reason: unknown = signal!.reason;
        reject(reason instanceof Error ? reason : new Error('the client went away while its upload waited'));
      };
      const timer = setTimeout(() => {
        leave();
        reject(this.full());
      }, this.waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private take(): () => void {
    this.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy--;
      this.waiting[0]?.grant();
    };
  }

  private full(): UploadBusyError {
    return new UploadBusyError(`every upload thread is busy (${this.slots}); retry in ${BUSY_RETRY_AFTER_SECONDS} s`);
  }
}
