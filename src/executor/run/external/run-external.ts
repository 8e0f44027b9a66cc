import { spawn } from 'node:child_process';
import type { ExternalCommand } from '../../../domain/external-algorithm.js';
import type { RunLogger, RunReport } from '../../../domain/run-context.js';
import { childEnvironment } from './child-environment.js';
import { containment } from './containment.js';
import { writeContractInput, type ContractInput } from './contract-input.js';
import { ExternalFailure } from './external-failure.js';
import type { ExternalLimits } from './external-limits.js';
import { exitFailure } from './exit-failure.js';
import { signalGroup } from './process-group.js';
import { programArgv } from './program-argv.js';
import { programUnstartable } from './program-lookup.js';
import { progressLine } from './progress-line.js';
import { RunCgroup } from './run-cgroup.js';
import { StderrLines } from './stderr-lines.js';
import { StdoutResult } from './stdout-result.js';

/** One run of an external algorithm's program. */
export interface ExternalRun {
  readonly external: ExternalCommand;
  readonly input: ContractInput;
  /** The domain module's directory: relative paths of the command resolve against it. */
  readonly baseDir: string;
  readonly limits: ExternalLimits;
  /** Aborted on cancel or time limit: the program's processes get SIGTERM, then SIGKILL after the grace. */
  readonly signal: AbortSignal;
  readonly progress: (fraction: number) => void;
  readonly report: (report: RunReport) => void;
  /** Receives every stderr line that is not a progress report. */
  readonly log: RunLogger;
}

type Exit = { readonly code: number | null; readonly signal: NodeJS.Signals | null } | { readonly error: Error };

/**
 * Runs the program under the contract (docs/external-algorithms.md) and resolves with its stdout as
 * text (not empty); the caller parses it or checks it as text (result-text-check.ts). Rejects with an `ExternalFailure` naming the
 * run error code, or with the signal's reason once aborted. Whatever happens, no process of the
 * program outlives the run: once the program exits, every process it started is killed, by its run's
 * cgroup where the machine allows one (containment.ts), else by its process group.
 */
export async function runExternal(run: ExternalRun): Promise<string> {
  const cgroup = runCgroup(run.log);
  try {
    return await contained(run, cgroup);
  } finally {
    if (cgroup !== undefined && !(await cgroup.remove(run.limits.killGraceMs))) {
      run.log.warn(`the run's cgroup ${cgroup.dir} could not be removed: a process in it does not end`);
    }
  }
}

/** The run's cgroup, or undefined where the machine offers none (or, unexpectedly, refuses this one). */
function runCgroup(log: RunLogger): RunCgroup | undefined {
  const found = containment();
  if (found.kind !== 'cgroup') return undefined;
  try {
    return RunCgroup.create(found.parent);
  } catch (err) {
    log.warn(`no cgroup for this run (${(err as NodeJS.ErrnoException).code ?? String(err)}): only the program's process group is ended with it`);
    return undefined;
  }
}

async function contained(run: ExternalRun, cgroup: RunCgroup | undefined): Promise<string> {
  const { limits } = run;
  const argv = programArgv(run.external, run.baseDir, limits.memoryBytes, cgroup?.procsFile);
  const env = childEnvironment(run.external.env);
  const unstartable = programUnstartable(argv.program, argv.cwd, env.PATH);
  if (unstartable !== undefined) throw new ExternalFailure('ALGORITHM_ERROR', startFailure(run, unstartable));
  const child = spawn(argv.file, argv.args, {
    cwd: argv.cwd,
    env,
    // Leads its own process group, so one signal reaches every process it starts.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let failure: ExternalFailure | undefined;
  let over = false;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = (signal: NodeJS.Signals) => {
    if (child.pid !== undefined) signalGroup(child.pid, signal);
    // A process that left the group (`setsid`) is still in the cgroup.
    if (signal === 'SIGKILL') cgroup?.kill();
    else cgroup?.signal(signal);
  };
  const fail = (err: unknown) => {
    if (failure !== undefined || over) return;
    failure = err instanceof ExternalFailure ? err : new ExternalFailure('ALGORITHM_ERROR', String(err));
    // A program past a bound gets no grace: it is misbehaving, not being asked to stop.
    kill('SIGKILL');
  };
  const terminate = () => {
    kill('SIGTERM');
    killTimer = setTimeout(() => kill('SIGKILL'), limits.killGraceMs);
  };

  const stdout = new StdoutResult(limits.stdoutBytes);
  const stderr = new StderrLines({ maxLineBytes: limits.stderrLineBytes, linesPerSecond: limits.stderrLinesPerSecond }, (line) => {
    const progress = progressLine(line);
    if (progress === undefined) {
      run.log.info(line);
      return;
    }
    run.progress(progress.progress);
    if (progress.report) run.report(progress.report);
  });
  child.stdout.on('data', (chunk: Buffer) => {
    if (failure === undefined) guard(() => stdout.push(chunk), fail);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (failure === undefined) guard(() => stderr.push(chunk), fail);
  });
  // EPIPE when the program exits without reading all its input: its exit status says what happened.
  child.stdin.on('error', () => undefined);

  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ error }));
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  if (run.signal.aborted) terminate();
  else run.signal.addEventListener('abort', terminate, { once: true });

  void writeContractInput(child.stdin, run.input, () => over || failure !== undefined || run.signal.aborted).catch(() => undefined);
  const exit = await exited;
  // The program is gone; a process it started must not outlive the run.
  kill('SIGKILL');
  await closedOrGiveUp(closed, limits.killGraceMs, () => {
    child.stdout.destroy();
    child.stderr.destroy();
  });
  // The last stderr line (one without a newline) is judged before the run is over: past a limit, it
  // fails the run like any other line (`fail` ignores everything once `over` is set).
  if (failure === undefined && !run.signal.aborted) guard(() => stderr.end(), fail);
  over = true;
  clearTimeout(killTimer);
  run.signal.removeEventListener('abort', terminate);
  if (run.signal.aborted) throw run.signal.reason;
  if (failure !== undefined) throw failure;
  if ('error' in exit) throw new ExternalFailure('ALGORITHM_ERROR', startFailure(run, exit.error.message));
  if (exit.code !== 0) throw exitFailure(exit, stderr.tail, limits.memoryBytes);
  return stdout.text();
}

function startFailure(run: ExternalRun, why: string): string {
  return `the program could not be started (${run.external.command[0]}): ${why}`;
}

function guard(step: () => void, fail: (err: unknown) => void): void {
  try {
    step();
  } catch (err) {
    fail(err);
  }
}

/**
 * Waits for the program's pipes to close. Without a cgroup, a process that left the group (`setsid`)
 * may hold them open; past `waitMs` they are destroyed rather than waited for.
 */
async function closedOrGiveUp(closed: Promise<void>, waitMs: number, giveUp: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      giveUp();
      resolve();
    }, waitMs);
  });
  await Promise.race([closed, late]);
  clearTimeout(timer);
}
