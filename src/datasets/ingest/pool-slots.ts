import { errors } from '../../error-factories.js';
import { ScenaristError } from '../../errors.js';


/** What a client that got `UPLOAD_BUSY` or `VIEW_BUSY` is told to wait before trying again (`Retry-After`, seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** What a pool's threads do: uploads (and from-json bodies), or domain views. */
export type PoolWork = 'upload' | 'view';

/** The 503 of work that found every thread busy: the route sends `retryAfterSeconds` as `Retry-After`. */
export class PoolBusyError extends ScenaristError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor(work: PoolWork, threads: number) {
    const worded = errors.poolBusy(work, threads, BUSY_RETRY_AFTER_SECONDS);
    super(worded.code, worded.message);
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
 * Admission to a pool's threads (the upload pool's, or the view pool's, which has no express lane).
 * `shared` tasks work at once on the shared lane, and `express` more on a lane only small uploads may
 * take: however long large uploads hold every shared thread, a small one (a form's worth of CSV) still
 * runs at once. The rest wait in one first-come queue, each for at most `waitMs`, and are answered 503
 * (`PoolBusyError`) when the wait runs out or `maxWaiting` already wait. So every task is answered
 * within `waitMs`: it runs, or it is told when to come back.
 */
export class PoolSlots {
  private readonly busy: Record<Lane, number> = { shared: 0, express: 0 };
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly lanes: Readonly<Record<Lane, number>>,
    private readonly maxWaiting: number,
    private readonly waitMs: number,
    private readonly work: PoolWork = 'upload',
  ) {}

  /**
   * Resolves with the function that gives the slot back, once one is free; rejects with
   * `PoolBusyError`, or with the signal's reason when it aborts while waiting.
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

  private full(): PoolBusyError {
    return new PoolBusyError(this.work, this.lanes.shared);
  }
}
