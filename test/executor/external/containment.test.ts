import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domain/load.js';
import { probeContainment, type Containment } from '../../../src/executor/run/external/containment.js';
import { announceContainment, endLeftovers } from '../../../src/runtime/external-containment.js';
import { until } from '../../support/until.js';
import { isAlive } from './process-table.js';
import { EXTERNAL_DOMAIN } from '../../fixtures/external/external-domain-path.js';
import { TEST_DOMAIN } from '../../fixtures/test-domain-path.js';

/**
 * How the processes of an external run are kept together (src/executor/run/external/containment.ts):
 * the machine's cgroup v2 hierarchy where it can be used, and what is said where it cannot.
 */

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'scenarist-containment-'));
});

/** A process's view of its cgroup and mounts, written as /proc would show them. */
function sources(name: string, cgroup: string, mountInfo: string) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'cgroup'), cgroup);
  writeFileSync(join(dir, 'mountinfo'), mountInfo);
  return { cgroupFile: join(dir, 'cgroup'), mountInfoFile: join(dir, 'mountinfo') };
}

const mountLine = (point: string) => `41 31 0:38 / ${point} rw,relatime - cgroup2 cgroup2 rw\n`;

describe('the containment probe', () => {
  it('finds a cgroup per run usable on this machine (CI runs as root with cgroup v2 mounted)', () => {
    const found = probeContainment();
    expect(found).toMatchObject({ kind: 'cgroup' });
    // The probe leaves nothing behind.
    if (found.kind === 'cgroup') expect(readdirSync(found.parent).filter((name) => name.startsWith(`scenarist-${process.pid}-`))).toEqual([]);
  });

  it('falls back to the process group, saying why, where the process is in no cgroup v2 hierarchy', () => {
    expect(probeContainment(sources('v1-only', '4:memory:/a\n1:cpu:/\n', mountLine('/sys/fs/cgroup/unified')))).toEqual({
      kind: 'process-group',
      reason: 'this process is in no cgroup v2 hierarchy',
    });
  });

  it('falls back where no cgroup v2 hierarchy is mounted', () => {
    const noMount = sources('no-mount', '0::/\n', '22 1 0:21 / /proc rw - proc proc rw\n');
    expect(probeContainment(noMount)).toEqual({ kind: 'process-group', reason: 'no cgroup v2 hierarchy is mounted' });
  });

  it('falls back where no cgroup can be made under its own (a read-only or missing hierarchy)', () => {
    const missing = join(scratch, 'no-such-hierarchy');
    const found = probeContainment(sources('unwritable', '0::/service\n', mountLine(missing)));
    expect(found).toEqual({ kind: 'process-group', reason: `cannot create a cgroup in ${join(missing, 'service')} (ENOENT)` });
  });

  it('falls back where the hierarchy has no cgroup.kill (a directory that is not a cgroup v2 one here)', () => {
    const plain = join(scratch, 'plain-directory');
    mkdirSync(plain);
    const found = probeContainment(sources('no-kill', '0::/\n', mountLine(plain)));
    expect(found).toEqual({ kind: 'process-group', reason: 'the kernel has no cgroup.kill (Linux 5.14 or later is needed)' });
    expect(readdirSync(plain)).toEqual([]);
  });
});

describe('the start-up line and the readiness note', () => {
  const logged = () => {
    const lines: Record<string, unknown>[] = [];
    return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) };
  };
  const limited: Containment = { kind: 'process-group', reason: 'no cgroup v2 hierarchy is mounted' };

  it('warns in one line and returns the note where only the process group contains the programs', async () => {
    const domain = await loadDomain(EXTERNAL_DOMAIN);
    const { lines, log } = logged();
    const note = await announceContainment(domain, log, () => limited);
    expect(note).toBe('external programs are contained by their process group only (no cgroup v2 hierarchy is mounted): a process one starts in a session of its own can outlive its run');
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'external programs contained by their process group only', reason: limited.reason })]);
  });

  it('says which cgroup contains them where one does, with no note', async () => {
    const domain = await loadDomain(EXTERNAL_DOMAIN);
    const { lines, log } = logged();
    expect(await announceContainment(domain, log, () => ({ kind: 'cgroup', parent: join(scratch, 'no-leftovers') }))).toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'external programs contained by a cgroup per run', cgroup: join(scratch, 'no-leftovers') })]);
  });

  it('says nothing, and probes nothing, for a domain without external algorithms', async () => {
    const domain = await loadDomain(TEST_DOMAIN);
    const { lines, log } = logged();
    const probe = () => {
      throw new Error('probed');
    };
    expect(await announceContainment(domain, log, probe)).toBeUndefined();
    expect(lines).toEqual([]);
  });
});

describe('the run cgroups of a process that was killed before it ended its runs', () => {
  it('are ended at the next start-up: their processes killed and the cgroups removed; those of a living owner are left', async () => {
    const found = probeContainment();
    if (found.kind !== 'cgroup') throw new Error(`no cgroup containment: ${found.reason}`);
    // The pid of a process that has exited and been reaped: no process owns it now.
    const gone = spawnSync('true').pid;
    // A parent of the test's own: every server the other test files start sweeps the shared parent's
    // leftovers when it starts, and would take this one's before its process is in it.
    const parent = join(found.parent, `containment-test-${process.pid}`);
    const leftover = join(parent, `scenarist-${gone}-0-0123abcd`);
    const living = join(parent, `scenarist-${process.pid}-0-fedcba98`);
    mkdirSync(parent);
    mkdirSync(leftover);
    mkdirSync(living);
    try {
      const sleeper = spawn('/bin/sh', ['-c', 'echo $$ > "$1" && exec sleep 600', 'left-running', join(leftover, 'cgroup.procs')], { stdio: 'ignore' });
      await until('the process to be in the leftover cgroup', () => readFileText(join(leftover, 'cgroup.procs')).includes(String(sleeper.pid)), { within: 10_000 });
      const lines: Record<string, unknown>[] = [];
      await endLeftovers(parent, pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }));
      await until('the process left running to be gone', () => !isAlive(sleeper.pid!), { within: 10_000 });
      expect(existsSync(leftover)).toBe(false);
      expect(existsSync(living)).toBe(true);
      expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'ended the processes an external run of a stopped process left', cgroup: leftover, removed: true })]);
    } finally {
      for (const dir of [leftover, living, parent]) if (existsSync(dir)) rmdirSync(dir);
    }
  });
});

function readFileText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
