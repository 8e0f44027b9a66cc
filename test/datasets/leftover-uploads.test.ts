import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeLeftoverUploads, UNOWNED_LEFTOVER_AGE_MS } from '../../src/datasets/ingest/leftover-uploads.js';
import { currentOwner, ownerOf, stagedFileName } from '../../src/datasets/ingest/staged-name.js';
import { scratchDirs } from '../support/scratch-dirs.js';

/** The pid of a process that ran and exited: no process of this machine has it now (barring reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const stagingFolder = scratchDirs('scenarist-staging-');
function put(dir: string, name: string, ageMs = 0): string {
  writeFileSync(join(dir, name), 'staged bytes');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(join(dir, name), at, at);
  return name;
}

describe('staged file names', () => {
  it('name the process that staged them, and only such names have an owner', () => {
    const owner = { host: 'api-2.example.com', pid: 4242 };
    expect(ownerOf(stagedFileName(owner))).toEqual(owner);
    expect(ownerOf(stagedFileName())).toEqual({ host: currentOwner().host, pid: process.pid });
    expect(ownerOf('3f2b0c7e-8d7c-4f4e-9a4e-2b6a0f1c9d11.upload')).toBeUndefined();
    expect(ownerOf('notes.txt')).toBeUndefined();
  });
});

describe('removing leftover staged uploads at start-up', () => {
  it('removes what no live process of this machine can need, and keeps the rest', async () => {
    const dir = stagingFolder();
    const { host } = currentOwner();
    // The starting server is pid 1 here (alive on every machine, so only "it is mine" removes its
    // files); this test process stands for another live server sharing the folder.
    const self = { host, pid: 1 };
    const dead = await deadPid();
    const ownEarlierLife = put(dir, stagedFileName(self));
    const crashed = put(dir, stagedFileName({ host, pid: dead }));
    const liveUpload = put(dir, stagedFileName({ host, pid: process.pid }), 2 * UNOWNED_LEFTOVER_AGE_MS);
    const otherMachine = put(dir, stagedFileName({ host: `not-${host}`, pid: dead }));
    const oldUnowned = put(dir, '3f2b0c7e-8d7c-4f4e-9a4e-2b6a0f1c9d11.upload', UNOWNED_LEFTOVER_AGE_MS + 60_000);
    const recentUnowned = put(dir, '9a1d2c3b-0000-4f4e-9a4e-2b6a0f1c9d11.upload');
    mkdirSync(join(dir, 'old-folder'));
    put(join(dir, 'old-folder'), 'inside');
    const old = (Date.now() - 2 * UNOWNED_LEFTOVER_AGE_MS) / 1000;
    utimesSync(join(dir, 'old-folder'), old, old);

    const sweep = await removeLeftoverUploads(dir, { owner: self });

    expect(sweep.failed).toEqual([]);
    expect(sweep.removed).toEqual([crashed, ownEarlierLife, oldUnowned, 'old-folder'].sort());
    expect(readdirSync(dir).sort()).toEqual([liveUpload, otherMachine, recentUnowned].sort());
  });

  it('finds nothing to do when no upload was ever staged', async () => {
    const missing = join(stagingFolder(), 'uploads');
    expect(await removeLeftoverUploads(missing)).toEqual({ removed: [], failed: [] });
  });
});
