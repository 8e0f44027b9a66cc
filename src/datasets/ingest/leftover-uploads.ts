import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { currentOwner, ownerOf, type StagingOwner } from './staged-name.js';
import { stagingDir } from './staging.js';

/** An entry whose name carries no owner (staged before names did, or put there by hand) is a leftover once this old. */
export const UNOWNED_LEFTOVER_AGE_MS = 60 * 60 * 1000;

export interface LeftoverSweep {
  /** Names of the entries removed. */
  readonly removed: readonly string[];
  /** Entries that are leftovers but could not be removed (permissions), with the reason. */
  readonly failed: readonly { readonly name: string; readonly error: Error }[];
}

export interface SweepOptions {
  /** The starting process (default: this one). */
  readonly owner?: StagingOwner;
  /** The time now, in ms (default: `Date.now()`). */
  readonly now?: number;
}

/**
 * Removes, before the server accepts requests, the staged files no upload in flight can need: a
 * request's files are removed when it ends, but a crash or a kill skips that. Several servers may
 * share the folder (API nodes of one PostgreSQL deployment with one `data_dir`), so a file goes only
 * when its owner is certainly gone: this process's pid (nothing is in flight before it listens) or a
 * process of this machine that no longer runs. A file of another machine is kept, since its process
 * cannot be checked from here; an entry whose name has no owner goes once `UNOWNED_LEFTOVER_AGE_MS` old.
 */
export async function removeLeftoverUploads(dir: string, options: SweepOptions = {}): Promise<LeftoverSweep> {
  const owner = options.owner ?? currentOwner();
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { removed: [], failed: [] };
    throw err;
  }
  const removed: string[] = [];
  const failed: { name: string; error: Error }[] = [];
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      try {
        if (!(await isLeftover(path, name, owner, now))) return;
        await rm(path, { recursive: true, force: true });
        removed.push(name);
      } catch (err) {
        // Gone already (its request ended meanwhile): nothing to do.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failed.push({ name, error: err as Error });
      }
    }),
  );
  return { removed: removed.sort(), failed };
}

async function isLeftover(path: string, name: string, self: StagingOwner, now: number): Promise<boolean> {
  const owner = ownerOf(name);
  if (owner === undefined) return now - (await lstat(path)).mtimeMs > UNOWNED_LEFTOVER_AGE_MS;
  if (owner.host !== self.host) return false;
  return owner.pid === self.pid || !isRunning(owner.pid);
}

/** Whether a process of this pid runs on this machine (signal 0 checks without signalling). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `removeLeftoverUploads` on the server's staging folder, logged; a failure only warns (serving matters more). */
export async function sweepStagingAtStart(dataDir: string, log: Logger): Promise<void> {
  const dir = stagingDir(dataDir);
  try {
    const { removed, failed } = await removeLeftoverUploads(dir);
    if (removed.length > 0) log.info({ dir, removed: removed.length }, 'removed staged uploads left by an earlier run');
    for (const { name, error } of failed) log.warn({ dir, file: name, err: error }, 'cannot remove a staged upload left by an earlier run');
  } catch (err) {
    log.warn({ dir, err }, 'cannot look for staged uploads left by an earlier run');
  }
}
