import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * How the processes of an external program's run are kept together so none outlives the run.
 *
 * - `cgroup`: each run gets a cgroup (v2) of its own under `parent`, the program is placed in it before
 *   it starts, and the run's end writes `cgroup.kill`: the kernel ends every process in it, whatever
 *   it did with sessions and process groups (`setsid`, a double fork) since no process leaves a cgroup
 *   by forking.
 * - `process-group`: the machine offers no writable cgroup v2 hierarchy (a container that mounts it
 *   read-only, a kernel older than 5.14); only the program's process group is signalled, which a
 *   process that calls `setsid` leaves. `reason` says why, for the start-up line and `/health/ready`.
 *
 * A PID namespace (`unshare --pid`) was weighed and not taken: the program would be the namespace's
 * init, which the kernel shields from every signal it has no handler for (SIGTERM on cancel would do
 * nothing), and the pids it sees would not be the machine's.
 */
export type Containment = { readonly kind: 'cgroup'; readonly parent: string } | { readonly kind: 'process-group'; readonly reason: string };

/** Where the probe reads the process's cgroup and the mounts; the defaults are the process's own. */
export interface ContainmentSources {
  readonly cgroupFile: string;
  readonly mountInfoFile: string;
}

const SELF: ContainmentSources = { cgroupFile: '/proc/self/cgroup', mountInfoFile: '/proc/self/mountinfo' };

let probed: Containment | undefined;

/** The containment of this process (each worker thread probes once, on its first external run). */
export function containment(): Containment {
  probed ??= probeContainment();
  return probed;
}

/**
 * Finds the cgroup v2 directory this process is in and checks, end to end, that a run's cgroup can be
 * made there, a process moved into it and the cgroup killed and removed.
 */
export function probeContainment(sources: ContainmentSources = SELF): Containment {
  const limited = (reason: string): Containment => ({ kind: 'process-group', reason });
  const own = unifiedPath(sources.cgroupFile);
  if (own === undefined) return limited('this process is in no cgroup v2 hierarchy');
  const mount = unifiedMount(sources.mountInfoFile);
  if (mount === undefined) return limited('no cgroup v2 hierarchy is mounted');
  const relative = posix.relative(mount.root, own);
  if (relative.startsWith('..')) return limited(`this process's cgroup ${own} is outside the mounted cgroup v2 hierarchy`);
  const parent = join(mount.point, relative);
  const probe = join(parent, `scenarist-${process.pid}-${threadId}-probe`);
  try {
    mkdirSync(probe);
  } catch (err) {
    return limited(`cannot create a cgroup in ${parent} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    if (!existsSync(join(probe, 'cgroup.kill'))) return limited('the kernel has no cgroup.kill (Linux 5.14 or later is needed)');
    const moved = spawnSync('/bin/sh', ['-c', 'echo $$ > "$1"', 'scenarist-probe', join(probe, 'cgroup.procs')], { stdio: 'ignore' });
    if (moved.status !== 0) return limited(`cannot move a process into a cgroup under ${parent}`);
    return { kind: 'cgroup', parent };
  } finally {
    try {
      rmdirSync(probe);
    } catch {
      // The probe's shell has exited, so the cgroup is empty; were it not removed, it holds nothing.
    }
  }
}

/** The path of the process's cgroup in the v2 hierarchy (its `0::` line), if it has one. */
function unifiedPath(file: string): string | undefined {
  const line = readLines(file).find((l) => l.startsWith('0::'));
  return line === undefined ? undefined : line.slice(3);
}

/** The mount point of the cgroup v2 hierarchy, and which of its paths is mounted there. */
function unifiedMount(file: string): { readonly point: string; readonly root: string } | undefined {
  for (const line of readLines(file)) {
    // Fields: id, parent, major:minor, root, mount point, options, optional fields, "-", type, source, options.
    const [before, after] = line.split(' - ');
    if (after?.split(' ')[0] !== 'cgroup2') continue;
    const fields = before!.split(' ');
    return { root: unescapeMountPath(fields[3]!), point: unescapeMountPath(fields[4]!) };
  }
  return undefined;
}

/** mountinfo writes a space, tab, newline and backslash in a path as octal escapes. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}
