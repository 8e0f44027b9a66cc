import { setTimeout as delay } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { coerceError } from '../../errors.js';
import type { ChainedRun, ChainMessage, ChainWord } from '../local/chain-messages.js';
import type { ClaimHold } from '../local/claim-hold.js';
import type { WorkerPool } from '../local/worker-pool.js';
import type { TimeLimits } from '../queue/time-limits.js';
import type { RunningRun } from './running-run.js';

/** What the run threads need to record their runs and claim the next (see `RunHostOptions.chain`). */
export interface ChainedRuns {
  readonly hold: ClaimHold;
  readonly timeLimits: TimeLimits;
  /**
   * How long a chain whose session has nothing claimable waits on its thread to be told a run of that
   * session was queued: a client sending its session's runs one request after another keeps its queue
   * on that thread, the claim included. The host takes the thread back at once when another session
   * needs it (`ChainHandle.release`).
   */
  readonly lingerMs: number;
}

/** How long a chain's messages sent before its thread stopped may take to arrive (a stopped thread sends no `done`). */
const DRAIN_MS = 1_000;

/** What the run host does as a chain's thread tells it what happened (see `RunHost`). */
export interface ChainHooks {
  /** `run` is over: log its last progress and insight before its thread writes its end. */
  beforeEnd(run: RunningRun, status: 'COMPLETE' | 'FAILED'): Promise<void>;
  /** The thread recorded `run`'s end (or could not): it no longer counts, and its end is announced. */
  recorded(run: RunningRun, message: Extract<ChainMessage, { kind: 'ended' }>): void;
  /** The thread goes on with `next` (claimed with the previous end, or when told): answers it hosted. */
  adopt(next: ChainedRun, taskAbort: AbortController): RunningRun;
  /** `run` has ended and whatever the thread claimed with it is hosted. */
  settled(run: RunningRun): void;
  /** A lingering chain found nothing to claim, or ended lingering: the queue may want a look. */
  idle(): void;
  /** The chain's task ended without recording `run` (its thread failed or was stopped): the host records it. */
  orphaned(run: RunningRun, failure: Error | undefined): void;
}

/** A chain as its host sees it between runs (see `run-chain.ts`, `ChainedRuns.lingerMs`). */
export interface ChainHandle {
  readonly sessionId: string;
  /**
   * Runs of its session cancelled while the thread may have claimed them unheard (the claim committed,
   * its message not handled yet): stopped if the thread says it claimed one.
   */
  readonly cancelled: Set<string>;
  /** The thread waits for word that its session has a run queued. */
  readonly lingering: boolean;
  /** A run of the session was queued: the lingering thread claims it if it heads the queue. */
  tellQueued(): void;
  /** Another session needs the thread: the chain stops lingering and ends. */
  release(): void;
}

/**
 * Main side of a chain (see `run-chain.ts`): posts one pool task starting with `first`, follows the
 * run its thread is on through the thread's messages, and hands a run the task left unrecorded to
 * `orphaned`. Messages of one port arrive in order, so the run being followed is always the one the
 * next message is about. `finished` is called once the task is over.
 */
export function startChainTask(first: RunningRun, pool: WorkerPool, chain: ChainedRuns, hooks: ChainHooks, finished: (handle: ChainHandle) => void): ChainHandle {
  const channel = new MessageChannel();
  const local = channel.port1;
  const say = (word: ChainWord) => local.postMessage(word);
  let current: RunningRun | undefined = first;
  let over = false;
  let released = false;
  const handle: ChainHandle = {
    sessionId: first.sessionId,
    cancelled: new Set(),
    get lingering() {
      return current === undefined && !over && !released;
    },
    tellQueued: () => say({ kind: 'claim' }),
    release: () => {
      released = true;
      say({ kind: 'release' });
    },
  };
  const closed = new Promise<void>((resolve) => local.once('close', resolve));
  local.on('message', (message: ChainMessage) => {
    const run = current;
    switch (message.kind) {
      case 'done':
        over = true;
        local.close();
        if (run === undefined) hooks.idle();
        return;
      case 'unclaimed':
        hooks.idle();
        return;
      case 'claimed':
        if (run === undefined) current = hooks.adopt(message.next, first.taskAbort);
        return;
      case 'ending':
        if (run?.scenarioId !== message.scenarioId) return;
        void hooks
          .beforeEnd(run, message.status)
          .catch(() => undefined)
          .then(() => say({ kind: 'proceed' }));
        return;
      case 'ended': {
        if (run?.scenarioId !== message.scenarioId) return;
        hooks.recorded(run, message);
        current = message.next && hooks.adopt(message.next, first.taskAbort);
        hooks.settled(run);
      }
    }
  });
  // A chain never keeps the process alive through its port (the pool's task does while it runs).
  local.unref();
  const { task, transferList } = first.task();
  const link = { port: channel.port2, hold: chain.hold.buffer, timeLimits: chain.timeLimits, first: first.claimed, lingerMs: chain.lingerMs };
  pool
    .run({ ...task, chain: link }, { signal: first.taskAbort.signal, transferList: [...transferList, channel.port2] })
    .then(
      () => undefined,
      (thrown: unknown) => coerceError(thrown),
    )
    .then(async (failure) => {
      await Promise.race([closed, delay(DRAIN_MS, undefined, { ref: false })]);
      local.close();
      over = true;
      if (current !== undefined) hooks.orphaned(current, failure);
    })
    .catch(() => undefined)
    .finally(() => finished(handle));
  return handle;
}
