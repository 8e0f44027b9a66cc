import { randomUUID } from 'node:crypto';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { coerceError } from '../../errors.js';
import type { RunsRepository } from '../../store/runs-repository.js';
import { claimHeadOfSession, type ClaimOptions } from '../queue/claim.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { recordOutcome, type OutcomeLog, type Recorded } from '../queue/record-outcome.js';
import { timeLimitOf } from '../queue/time-limits.js';
import { InsightRecorder } from '../run/insight-recorder.js';
import type { RunOutcome } from '../run/job.js';
import type { ChainedRun, ChainLink, ChainMessage, RelayedLogLine } from './chain-messages.js';
import { ClaimHold } from './claim-hold.js';
import { MainThreadWords } from './main-thread-words.js';
import { RunControl } from './run-control.js';
import type { WorkerTask } from './worker-task.js';


/** One run of a chain as the thread holds it. */
interface ChainRun {
  readonly claimed: ClaimedRun;
  readonly control: SharedArrayBuffer;
  readonly insight: MessagePort;
}

export interface RunChainDeps {
  /** The thread's store connection (opened with its resources; a failure there ends the chain). */
  readonly runs: () => Promise<RunsRepository>;
  /** Runs one scenario with the shared run core; throws only when the thread cannot run anything (its domain or store). */
  readonly runOne: (task: WorkerTask, insight: InsightRecorder) => Promise<RunOutcome>;
}

/** What the chain's steps share. */
interface Chain {
  readonly port: MessagePort;
  readonly words: MainThreadWords;
  readonly hold: ClaimHold;
  readonly claimOptions: ClaimOptions;
  readonly lingerMs: number;
}

/**
 * The run thread's side of the local executor's run path: runs the claimed scenario, records its end
 * on the thread's own store connection (claiming its session's next run in the same transaction, as
 * the main thread would), and goes on with that run; when nothing of its session is claimable it
 * lingers (`ChainLink.lingerMs`), claiming the session's next run itself when told one was queued. The main
 * thread is only told what happened (`ChainMessage`s), so a session's queue runs on this thread's core
 * without the HTTP thread's claims, completions or hand-offs between its runs.
 *
 * The outbox keeps its order: a run that reported progress or insight first has the main thread log
 * its last progress and write its last reports and log lines (`ending`, answered by `proceed`), and
 * only then is its end written, whose life-cycle event the store's trigger logs in that transaction.
 * No run is claimed while the main thread holds claims (`ClaimHold`: a cancel or a session's deletion
 * under way, or a shutdown), nor after a run that was stopped.
 */
export async function runChain(task: WorkerTask, link: ChainLink, deps: RunChainDeps): Promise<void> {
  const chain: Chain = {
    port: link.port,
    words: new MainThreadWords(link.port),
    hold: new ClaimHold(link.hold),
    claimOptions: { timeLimitOf: timeLimitOf(link.timeLimits) },
    lingerMs: link.lingerMs,
  };
  let run: ChainRun | undefined = { claimed: link.first, control: task.control, insight: task.insight };
  try {
    while (run !== undefined) {
      const outcome = await runOnce(run, deps);
      const runs = await deps.runs();
      const ended = await recordAndClaimNext(run, outcome, chain, runs);
      run = ended.next ?? (ended.mayLinger ? await lingerForNext(run.claimed.job.sessionId, chain, runs) : undefined);
    }
  } finally {
    post(link.port, { kind: 'done' });
    link.port.close();
  }
}

async function runOnce(run: ChainRun, deps: RunChainDeps): Promise<{ outcome: RunOutcome; spoke: boolean }> {
  const insight = new InsightRecorder((batch) => run.insight.postMessage(batch));
  let outcome: RunOutcome;
  try {
    outcome = await deps.runOne({ job: run.claimed.job, control: run.control, insight: run.insight }, insight);
  } finally {
    // The final batch first: whether the run said anything counts it too.
    insight.finish();
  }
  return { outcome, spoke: insight.spoke };
}

/**
 * Records `run`'s end as `recordOutcome` does and tells the main thread; answers the session's next run
 * when it was claimed with it, and whether the chain may wait for one (the run was not stopped, claims
 * are not held and its end is written).
 */
async function recordAndClaimNext(
  run: ChainRun,
  { outcome, spoke }: { outcome: RunOutcome; spoke: boolean },
  chain: Chain,
  runs: RunsRepository,
): Promise<{ next?: ChainRun; mayLinger: boolean }> {
  const control = new RunControl(run.control);
  const stopReason = control.stopReason;
  const scenarioId = run.claimed.job.scenarioId;
  if (stopReason !== 'cancel' && (spoke || control.progress > 0)) {
    post(chain.port, { kind: 'ending', scenarioId, status: outcome.status });
    await chain.words.proceeded();
  }
  const log = new RelayedLog();
  const claiming = !chain.hold.held;
  let recorded: Recorded = {};
  let written = false;
  try {
    recorded = await recordOutcome(runs, run.claimed, stopReason, outcome, log, undefined, claiming ? chain.claimOptions : undefined);
    written = true;
  } catch (thrown) {
    // As on the main thread: locally the next start recovers it.
    const err = coerceError(thrown);
    log.error({ scenario_id: scenarioId, session_id: run.claimed.job.sessionId, err: { message: err.message, stack: err.stack } }, 'executor: could not record the outcome of a run');
  }
  const announcement = recorded.announcement ? { announcement: recorded.announcement } : {};
  const mayLinger = written && claiming && stopReason === undefined;
  if (recorded.next === undefined) {
    post(chain.port, { kind: 'ended', scenarioId, log: log.lines, ...announcement });
    return { mayLinger };
  }
  const { chained, local } = handOver(recorded.next);
  post(chain.port, { kind: 'ended', scenarioId, log: log.lines, next: chained, ...announcement }, [chained.insight]);
  return { next: local, mayLinger };
}

/**
 * Waits until told a run of `sessionId` was queued, then claims the session's head if it heads the
 * queue; gives up after `lingerMs`, or when the main thread takes the thread back.
 */
async function lingerForNext(sessionId: string, chain: Chain, runs: RunsRepository): Promise<ChainRun | undefined> {
  const deadline = Date.now() + chain.lingerMs;
  while (await chain.words.toldToClaim(deadline - Date.now())) {
    const claimed = chain.hold.held ? undefined : await claimHeadOfSession(runs, sessionId, randomUUID(), chain.claimOptions).catch(() => undefined);
    if (claimed === undefined) {
      post(chain.port, { kind: 'unclaimed' });
      continue;
    }
    const { chained, local } = handOver(claimed);
    post(chain.port, { kind: 'claimed', next: chained }, [chained.insight]);
    return local;
  }
  return undefined;
}

/** A run claimed here: what the main thread gets of it (its control block, one end of its insight channel) and what this thread keeps. */
function handOver(claimed: ClaimedRun): { chained: ChainedRun; local: ChainRun } {
  const channel = new MessageChannel();
  const control = new RunControl().buffer;
  return { chained: { claimed, control, insight: channel.port1 }, local: { claimed, control, insight: channel.port2 } };
}

function post(port: MessagePort, message: ChainMessage, transfer: MessagePort[] = []): void {
  port.postMessage(message, transfer);
}

/** Collects what recording logs, for the main thread's logger. */
class RelayedLog implements OutcomeLog {
  readonly lines: RelayedLogLine[] = [];

  warn(fields: object, message: string): void {
    this.lines.push({ level: 'warn', fields: { ...fields }, message });
  }

  error(fields: object, message: string): void {
    this.lines.push({ level: 'error', fields: { ...fields }, message });
  }
}
