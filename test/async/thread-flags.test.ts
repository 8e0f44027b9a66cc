import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadFlags } from '../../src/async/thread-flags.js';

/** Starts a thread with these options and ends it: throws as Node does when it refuses one. */
async function startThread(execArgv: string[]): Promise<void> {
  const thread = new Worker('void 0', { eval: true, execArgv });
  await thread.terminate();
}

describe('threadFlags', () => {
  const operators = ['--max-old-space-size=512', '--title', 'scenarist', '--stack-size=2000', '--expose-gc', '--max-semi-space-size=4'];
  const loading = ['--import', 'tsx', '--conditions=development', '-r', './preload.cjs', '--enable-source-maps', '--no-experimental-require-module', '--cpu-prof', '--cpu-prof-dir=/tmp/profiles'];

  it("keeps how modules load and what diagnostics a thread writes, in order, with each option's value", () => {
    expect(threadFlags(loading)).toEqual(loading);
  });

  it("leaves out V8's and the process's own options, and a value given as the next argument with them", () => {
    expect(threadFlags([...operators.slice(0, 3), ...loading.slice(0, 3), ...operators.slice(3)])).toEqual(loading.slice(0, 3));
    expect(threadFlags(operators)).toEqual([]);
  });

  it("keeps only options Node starts a thread with, where the process's own are refused", async () => {
    await expect(startThread(operators.slice(0, 1))).rejects.toMatchObject({ code: 'ERR_WORKER_INVALID_EXEC_ARGV' });
    const accepted = threadFlags([...operators, '--enable-source-maps', '--trace-warnings', '--no-deprecation', '--unhandled-rejections', 'strict']);
    expect(accepted).toEqual(['--enable-source-maps', '--trace-warnings', '--no-deprecation', '--unhandled-rejections', 'strict']);
    await expect(startThread(accepted)).resolves.toBeUndefined();
  });
});
