import { setTimeout as delay } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { coerceError } from '../../errors.js';
import type { ChainMessage, ChainProceed } from '../local/chain-messages.js';
import type { ClaimHold } from '../local/claim-hold.js';
import type { WorkerPool } from '../local/worker-pool.js';
import type { TimeLimits } from '../queue/time-limits.js';
import type { RunningRun } from './running-run.js';

/** What the run threads need to record their runs and claim the next (see `RunHostOptions.chain`). */
export interface ChainedRuns {
  readonly hold: ClaimHold;
  readonly timeLimits: TimeLimits;
}

/** How long a chain's messages sent before its thread stopped may take to arrive (a stopped thread sends no `done`). */
const DRAIN_MS = 1_000;

/** What the run host does as a chain's thread tells it what happened (see `RunHost`). */
export interface ChainHooks {
  /** `run` is over: log its last progress and insight before its thread writes its end. */
  beforeEnd(run: RunningRun, status: 'COMPLETE' | 'FAILED'): Promise<void>;
  /** The thread recorded `run`'s end: answers the session's next run, now hosted, when the thread claimed one. */
  ended(run: RunningRun, message: Extract<ChainMessage, { kind: 'ended' }>): RunningRun | undefined;
  /** The chain's task ended without recording `run` (its thread failed or was stopped): the host records it. */
  orphaned(run: RunningRun, failure: Error | undefined): void;
}

/**
 * Main side of a chain (see `run-chain.ts`): posts one pool task starting with `first`, follows the
 * run its thread is on through the thread's messages, and hands a run the task left unrecorded to
 * `orphaned`. Messages of one port arrive in order, so the run being followed is always the one the
 * next message is about.
 */
export function startChainTask(first: RunningRun, pool: WorkerPool, chain: ChainedRuns, hooks: ChainHooks): void {
  const channel = new MessageChannel();
  const local = channel.port1;
  let current: RunningRun | undefined = first;
  const closed = new Promise<void>((resolve) => local.once('close', resolve));
  local.on('message', (message: ChainMessage) => {
    const run = current;
    if (message.kind === 'done') local.close();
    else if (run === undefined || message.scenarioId !== run.scenarioId) return;
    else if (message.kind === 'ending') {
      void hooks
        .beforeEnd(run, message.status)
        .catch(() => undefined)
        .then(() => local.postMessage({ kind: 'proceed' } satisfies ChainProceed));
    }
    else current = hooks.ended(run, message);
  });
  // A chain never keeps the process alive through its port (the pool's task does while it runs).
  local.unref();
  const { task, transferList } = first.task();
  const link = { port: channel.port2, hold: chain.hold.buffer, timeLimits: chain.timeLimits, first: first.claimed };
  pool
    .run({ ...task, chain: link }, { signal: first.taskAbort.signal, transferList: [...transferList, channel.port2] })
    .then(
      () => undefined,
      (thrown: unknown) => coerceError(thrown),
    )
    .then(async (failure) => {
      await Promise.race([closed, delay(DRAIN_MS, undefined, { ref: false })]);
      local.close();
      if (current !== undefined) hooks.orphaned(current, failure);
    })
    .catch(() => undefined);
}
