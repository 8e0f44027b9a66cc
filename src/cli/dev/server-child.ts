import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The child entry next to this module: `.ts` when running from the sources (tsx), `.js` from dist/. */
const CHILD_ENTRY = fileURLToPath(new URL(`./child-entry.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

/** What the supervisor tells a spare, and what the spare answers (over the IPC channel). */
export type SpareOrder = 'load' | 'serve';
export const SPARE_LOADED = 'loaded';

/** A spare's priority while it waits (Unix niceness: 0 is normal, 19 the lowest). */
const SPARE_NICENESS = 15;

/**
 * A `scenarist serve` process started ahead: Node started and the command's modules imported, waiting
 * for its orders. `load` imports the domain as it is now and answers when it has (a changed domain is
 * tried there, while the running server keeps the store); `serve` then opens the store and listens. A
 * reload pays only for the domain, the store and the listen, not for a process start nor a second
 * process to try the domain in.
 */
export class SpareServer {
  readonly child: ChildProcess;
  private loading: Promise<boolean> | undefined;

  constructor(serveArgs: readonly string[]) {
    this.child = spawn(process.execPath, [...process.execArgv, CHILD_ENTRY, '--spare', ...serveArgs], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // A spare that died before its orders is seen by `load` and the readiness wait, not thrown here.
    this.child.on('error', () => {});
    // It prepares while the running server starts and works: it takes the CPU they leave. Its `load`
    // is what a save waits for, so it gets its full share back then.
    this.renice(SPARE_NICENESS);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.connected;
  }

  /** Imports the domain; true once loaded, false when it failed (the spare printed why and exited). */
  load(): Promise<boolean> {
    this.renice(0);
    this.loading ??= new Promise<boolean>((resolve) => {
      if (!this.alive) return resolve(false);
      const answered = (message: unknown) => {
        if (message !== SPARE_LOADED) return;
        this.child.off('exit', died);
        resolve(true);
      };
      const died = () => {
        this.child.off('message', answered);
        resolve(false);
      };
      this.child.on('message', answered);
      this.child.once('exit', died);
      this.order('load');
    });
    return this.loading;
  }

  /** Opens the store and listens (after `load` answered true). */
  serve(): void {
    this.order('serve');
  }

  /**
   * Ends a spare that will not serve (its domain is outdated, or dev is stopping). It has not opened
   * the store, so it is killed outright: a domain stuck in its import must not hold the reload.
   */
  async discard(): Promise<void> {
    this.child.kill('SIGKILL');
    await exited(this.child);
  }

  private renice(niceness: number): void {
    try {
      if (this.child.pid !== undefined) setPriority(this.child.pid, niceness);
    } catch {
      // Gone already, or not allowed to raise its priority back (only a privileged user may): the
      // spare, and the server it becomes, then keep the low priority; they still run, more slowly
      // when the machine is busy.
    }
  }

  private order(order: SpareOrder): void {
    if (this.child.connected) this.child.send(order, () => {});
  }
}

/** Resolves with the exit code (or 1 for a death by signal) once the child has exited. */
export function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** How long a server child may drain (its own limit is 15 s) before it is killed. */
const STOP_LIMIT_MS = 20_000;

/** SIGTERM (the server drains: running scenarios go back to the queue), then SIGKILL past the limit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
  await exited(child);
  clearTimeout(timer);
}

/** Start-up migrates the store and seeds `main`: generous, but a server that never listens is given up on. */
const READY_LIMIT_MS = 120_000;

/**
 * Waits until the server answers `GET /health` (true), or the child exits first or stays silent past the
 * limit (false). The health route answers at the root whatever the prefix, and needs no token.
 */
export async function waitReady(child: ChildProcess, healthUrl: string): Promise<boolean> {
  const deadline = Date.now() + READY_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) return false;
    try {
      const res = await fetch(healthUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
