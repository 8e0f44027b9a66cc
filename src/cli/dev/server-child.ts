import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The child entry next to this module: `.ts` when running from the sources (tsx), `.js` from dist/. */
const CHILD_ENTRY = fileURLToPath(new URL(`./child-entry.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

/** Starts `scenarist <args>` as a child process with this process's Node flags and stdio. */
export function spawnCli(args: readonly string[], stdio: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, CHILD_ENTRY, ...args], { stdio: ['ignore', stdio, stdio] });
}

/** Tells a child started by `spawnSpare` to go on. */
export const SPARE_GO = 'go\n';

/**
 * Starts `scenarist <args>` as a spare: Node started and the command's modules loaded, waiting for
 * `SPARE_GO` on its stdin before it runs (and loads the domain, which may change meanwhile). A reload
 * then pays only for the domain, the store and the listen, not for a process start.
 */
export function spawnSpare(args: readonly string[]): ChildProcess {
  const child = spawn(process.execPath, [...process.execArgv, CHILD_ENTRY, '--spare', ...args], { stdio: ['pipe', 'inherit', 'inherit'] });
  // A spare that died before its go (EPIPE on the write) is seen by the readiness wait, not thrown here.
  child.stdin.on('error', () => {});
  return child;
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

export interface Probe {
  readonly outcome: Promise<{ readonly ok: boolean; readonly output: string }>;
  cancel(): void;
}

/**
 * Loads the domain in a throw-away process: what a changed domain must pass before the server is swapped.
 * It runs while the supervisor type-checks, on another core.
 */
export function probeDomain(domain: string): Probe {
  const child = spawnCli(['probe', domain], 'pipe');
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    outcome: exited(child).then((code) => ({ ok: code === 0, output: output.trim() })),
    cancel: () => child.kill('SIGKILL'),
  };
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
