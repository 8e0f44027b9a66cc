import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { coerceError } from '../../errors.js';
import type { RunsRepository } from '../../store/runs-repository.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { recordOutcome, type OutcomeLog, type Recorded } from '../queue/record-outcome.js';
import { timeLimitOf } from '../queue/time-limits.js';
import { InsightRecorder } from '../run/insight-recorder.js';
import type { RunOutcome } from '../run/job.js';
import type { ChainedRun, ChainLink, ChainMessage, ChainProceed, RelayedLogLine } from './chain-messages.js';
import { ClaimHold } from './claim-hold.js';
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

/**
 * The run thread's side of the local executor's run path: runs the claimed scenario, records its end
 * on the thread's own store connection (claiming its session's next run in the same transaction, as
 * the main thread would), and goes on with that run, until its session has nothing claimable. The
 * main thread is only told what happened (`ChainMessage`s), so a session's queue runs on this
 * thread's core without waiting for the HTTP thread between runs.
 *
 * The outbox keeps its order: a run that reported progress or insight first has the main thread log
 * its last progress and write its last reports and log lines (`ending`, answered by `proceed`), and
 * only then is its end written, whose life-cycle event the store's trigger logs in that transaction.
 * No next run is claimed while the main thread holds claims (`ClaimHold`: a cancel or a session's
 * deletion under way, or a shutdown), nor after a run that was stopped for a shutdown.
 */
export async function runChain(task: WorkerTask, link: ChainLink, deps: RunChainDeps): Promise<void> {
  const hold = new ClaimHold(link.hold);
  const claimOptions = { timeLimitOf: timeLimitOf(link.timeLimits) };
  let run: ChainRun | undefined = { claimed: link.first, control: task.control, insight: task.insight };
  try {
    while (run !== undefined) {
      const outcome = await runOnce(run, deps);
      run = await recordAndClaimNext(run, outcome, link.port, hold.held ? undefined : claimOptions, await deps.runs());
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

/** Records `run`'s end as `recordOutcome` does, tells the main thread, and answers the session's next run when it was claimed with it. */
async function recordAndClaimNext(
  run: ChainRun,
  { outcome, spoke }: { outcome: RunOutcome; spoke: boolean },
  port: MessagePort,
  next: { timeLimitOf: (algoName: string) => number } | undefined,
  runs: RunsRepository,
): Promise<ChainRun | undefined> {
  const control = new RunControl(run.control);
  const stopReason = control.stopReason;
  const scenarioId = run.claimed.job.scenarioId;
  if (stopReason !== 'cancel' && (spoke || control.progress > 0)) await mainThreadLogged(port, { kind: 'ending', scenarioId, status: outcome.status });
  const log = new RelayedLog();
  let recorded: Recorded = {};
  try {
    recorded = await recordOutcome(runs, run.claimed, stopReason, outcome, log, undefined, next);
  } catch (thrown) {
    // As on the main thread: locally the next start recovers it.
    const err = coerceError(thrown);
    log.error({ scenario_id: scenarioId, session_id: run.claimed.job.sessionId, err: { message: err.message, stack: err.stack } }, 'executor: could not record the outcome of a run');
  }
  const claimed = recorded.next;
  if (claimed === undefined) {
    post(port, { kind: 'ended', scenarioId, log: log.lines, ...(recorded.announcement ? { announcement: recorded.announcement } : {}) });
    return undefined;
  }
  const channel = new MessageChannel();
  const chained: ChainedRun = { claimed, control: new RunControl().buffer, insight: channel.port1 };
  post(port, { kind: 'ended', scenarioId, log: log.lines, next: chained, ...(recorded.announcement ? { announcement: recorded.announcement } : {}) }, [channel.port1]);
  return { claimed, control: chained.control, insight: channel.port2 };
}

function post(port: MessagePort, message: ChainMessage, transfer: MessagePort[] = []): void {
  port.postMessage(message, transfer);
}

/** Asks the main thread to log the run's last progress and insight; resolves on its answer. */
function mainThreadLogged(port: MessagePort, ending: ChainMessage): Promise<void> {
  return new Promise((resolve) => {
    port.once('message', (answer: ChainProceed) => {
      if (answer.kind === 'proceed') resolve();
    });
    post(port, ending);
  });
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
