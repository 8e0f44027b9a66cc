import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(REPO_ROOT, 'bin', 'scenarist.js');

/**
 * Starts `scenarist worker` on a PostgreSQL database as a real process running `concurrency` runs at
 * once; its errors go to the test's stderr. The caller stops it (SIGTERM, or SIGKILL as a crash).
 */
export function spawnWorker(databaseUrl: string, concurrency: number, args: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [BIN, 'worker', '--database-url', databaseUrl, '--concurrency', String(concurrency), '--log-level', 'warn', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A port that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM (or another signal) and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stop and remove the data directory. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  readonly args?: readonly string[];
  readonly dataDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly command?: string;
  /** The script that runs the CLI (default: bin/scenarist.js). */
  readonly entry?: string;
  /** Node's own options, given before the script (`node <nodeFlags> bin/scenarist.js ...`). */
  readonly nodeFlags?: readonly string[];
}

/** Starts `scenarist serve` as a real process and waits until /health answers. */
export async function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'scenarist-e2e-'));
  const args = [...(options.nodeFlags ?? []), options.entry ?? BIN, options.command ?? 'serve', '--port', String(port), '--data-dir', dataDir, ...(options.args ?? [])];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await until(() => `the server to become ready:\n${output}`, async () => {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
      // Refused until it listens.
      return (await fetch(`${url}/health`).catch(() => undefined))?.ok;
    }, { every: 100 });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    url,
    port,
    dataDir,
    child,
    output: () => output,
    stop,
    dispose: async () => {
      await stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the CLI to completion and returns its exit code and output (for start-up failures). */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}
