import type { Logger } from 'pino';
import { isExternal } from '../domain/external-algorithm.js';
import type { DomainRegistry } from '../domain/registry.js';
import { containment, type Containment } from '../executor/run/external/containment.js';
import { RunCgroup } from '../executor/run/external/run-cgroup.js';

/** How long the start-up waits for the processes of one leftover run cgroup to end. */
const LEFTOVER_WAIT_MS = 5_000;

/**
 * Says at start-up, in one log line, how this process keeps the processes of external runs together,
 * and returns the note `/health/ready` carries where that is only their process group (a process that
 * calls `setsid` could then outlive its run). Nothing is said or probed for a domain without
 * external algorithms. The run threads probe the same machine on their own and find the same.
 *
 * With a cgroup per run, it first ends what runs of a process that was killed before it could end
 * them left behind (their cgroups outlive it, named after its pid).
 */
export async function announceContainment(domain: DomainRegistry, log: Logger, found: () => Containment = containment): Promise<string | undefined> {
  if (!domain.domain.algorithms.some((algorithm) => isExternal(algorithm))) return undefined;
  const mechanism = found();
  if (mechanism.kind === 'cgroup') {
    log.info({ cgroup: mechanism.parent }, 'external programs contained by a cgroup per run');
    await endLeftovers(mechanism.parent, log);
    return undefined;
  }
  log.warn({ reason: mechanism.reason }, 'external programs contained by their process group only');
  return `external programs are contained by their process group only (${mechanism.reason}): a process one starts in a session of its own can outlive its run`;
}

/** Ends the processes of run cgroups whose owning process is gone, and removes the cgroups. */
export async function endLeftovers(parent: string, log: Logger): Promise<void> {
  for (const cgroup of RunCgroup.leftovers(parent, isRunning)) {
    const removed = await cgroup.remove(LEFTOVER_WAIT_MS);
    log.warn({ cgroup: cgroup.dir, removed }, 'ended the processes an external run of a stopped process left');
  }
}

/** Whether a process of this pid runs on this machine (signal 0 checks without signalling). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
