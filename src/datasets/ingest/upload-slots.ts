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

/** The shared lane takes any upload; the express lane only small ones, when the shared one is full. */
type Lane = 'shared' | 'express';

interface Waiter {
  readonly small: boolean;
  readonly grant: (lane: Lane) => void;
}

export interface AcquireOptions {
  /** A small upload (see `SMALL_UPLOAD_BYTES`) may take the express lane. */
  readonly small?: boolean;
  /** Aborted when the client went away: it leaves the queue. */
  readonly signal?: AbortSignal;
}

/**
 * Admission to the upload threads. `shared` uploads work at once on the shared lane, and `express` more
 * on a lane only small uploads may take: however long large uploads hold every shared thread, a small
 * one (a form's worth of CSV) still runs at once. The rest wait in one first-come queue, each for at
 * most `waitMs`, and are answered 503 (`UploadBusyError`) when the wait runs out or `maxWaiting` already
 * wait. So every upload is answered within `waitMs`: it runs, or it is told when to come back.
 */
export class UploadSlots {
  private readonly busy: Record<Lane, number> = { shared: 0, express: 0 };
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly lanes: Readonly<Record<Lane, number>>,
    private readonly maxWaiting: number,
    private readonly waitMs: number,
  ) {}

  /**
   * Resolves with the function that gives the slot back, once one is free; rejects with
   * `UploadBusyError`, or with the signal's reason when it aborts while waiting.
   */
  acquire({ small = false, signal }: AcquireOptions = {}): Promise<() => void> {
    const free = this.freeLane(small);
    if (free) return Promise.resolve(this.take(free));
    if (this.waiting.length >= this.maxWaiting || this.waitMs === 0) return Promise.reject(this.full());
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        small,
        grant: (lane) => {
          leave();
          resolve(this.take(lane));
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

  private freeLane(small: boolean): Lane | undefined {
    if (this.busy.shared < this.lanes.shared) return 'shared';
    if (small && this.busy.express < this.lanes.express) return 'express';
    return undefined;
  }

  private take(lane: Lane): () => void {
    this.busy[lane]++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy[lane]--;
      // A freed shared slot goes to the first in line; a freed express slot to the first small one.
      const next = lane === 'shared' ? this.waiting[0] : this.waiting.find((w) => w.small);
      next?.grant(lane);
    };
  }

  private full(): UploadBusyError {
    return new UploadBusyError(`every upload thread is busy (${this.lanes.shared}); retry in ${BUSY_RETRY_AFTER_SECONDS} s`);
  }
}
