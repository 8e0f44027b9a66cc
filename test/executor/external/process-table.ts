import { readFileSync } from 'node:fs';

/**
 * Whether a process is alive in the process table: it exists and is not a zombie (a process that was
 * killed but not yet reaped by its parent, which in a container may never happen, is gone for good).
 */
export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // The state is the field after the parenthesised command name, which may itself hold spaces.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** The pids a test program wrote to `file` once it has. */
export function readPids(file: string): number[] | undefined {
  try {
    return readFileSync(file, 'utf8').split(' ').map(Number);
  } catch {
    return undefined;
  }
}
