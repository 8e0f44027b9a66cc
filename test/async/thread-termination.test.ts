import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/server-process.js';

/**
 * 40 pools of the run threads, each destroyed 0-350 ms after it was made: while its threads start,
 * load the entry, or wait. Run in a process of its own, since what is at stake is that process.
 * The pools start their threads as the run pool does, with threadEntry's file and Node options (with
 * the options a thread inherits instead, 2 of 3 such processes aborted on Node 20.20).
 */
async function destroyPoolsWhileThreadsStart(): Promise<{ status: number | null; output: string }> {
  const threadEntryModule = pathToFileURL(join(REPO_ROOT, 'dist', 'src', 'async', 'thread-entry.js')).href;
  const workerPoolModule = pathToFileURL(join(REPO_ROOT, 'dist', 'src', 'executor', 'host', 'worker-pool.js')).href;
  const script = `
    import { Piscina } from 'piscina';
    import { threadEntry } from ${JSON.stringify(threadEntryModule)};
    const entry = threadEntry(${JSON.stringify(workerPoolModule)}, 'worker-entry');
    for (let i = 0; i < 40; i++) {
      const pool = new Piscina({ filename: entry.filename, execArgv: entry.execArgv, minThreads: 2, maxThreads: 2 });
      await new Promise((resolve) => setTimeout(resolve, (i % 8) * 50));
      await pool.destroy();
    }
    console.log('all 40 pools destroyed');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { status, output };
}

describe('pool threads terminated while they start', () => {
  it('never abort the process that destroys their pool', async () => {
    const { status, output } = await destroyPoolsWhileThreadsStart();
    expect(output).not.toContain('FATAL ERROR');
    expect(output).toContain('all 40 pools destroyed');
    expect(status).toBe(0);
  }, 150_000);
});
