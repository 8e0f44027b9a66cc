import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';

/** How often `remove` looks whether the killed processes have left the cgroup. */
const EMPTY_POLL_MS = 10;

/** A run cgroup's name: `scenarist-<pid of the owning process>-<thread>-<random>`. */
const NAME = /^scenarist-(\d+)-\d+-[0-9a-f]{8}$/;

/**
 * The cgroup of one external run (see `Containment`). The program moves itself into it before it
 * starts (`procsFile`, see program-argv.ts), so every process it starts is in it too, and no `setsid`
 * or double fork takes one out: `kill` ends them all at once.
 */
export class RunCgroup {
  private constructor(readonly dir: string) {}

  /** Makes the run's cgroup under `parent`; its name holds the owner's pid, so a leftover can be traced. */
  static create(parent: string): RunCgroup {
    const dir = join(parent, `scenarist-${process.pid}-${threadId}-${randomUUID().slice(0, 8)}`);
    mkdirSync(dir);
    return new RunCgroup(dir);
  }

  /**
   * The run cgroups under `parent` whose owning process is gone: it was killed (or crashed) before it
   * could end its runs, and what they left running is still in them, to be ended with `remove`.
   */
  static leftovers(parent: string, alive: (pid: number) => boolean): RunCgroup[] {
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const owner = NAME.exec(name)?.[1];
      return owner === undefined || alive(Number(owner)) ? [] : [new RunCgroup(join(parent, name))];
    });
  }

  /** The file a process writes its pid to, to enter the cgroup. */
  get procsFile(): string {
    return join(this.dir, 'cgroup.procs');
  }

  /**
   * Sends `signal` to every process in the cgroup (the grace before `kill` on cancel and time limit).
   * Never throws (it runs in stream handlers): a process that has just exited is no error.
   */
  signal(signal: NodeJS.Signals): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, signal);
      } catch {
        // ESRCH: gone already.
      }
    }
  }

  /**
   * SIGKILL to every process in the cgroup and its descendants, by the kernel, in one write. Never
   * throws (it runs in stream handlers); a cgroup that could not be killed is one `remove` cannot
   * remove, and that is logged.
   */
  kill(): void {
    try {
      writeFileSync(join(this.dir, 'cgroup.kill'), '1');
    } catch {
      // ENOENT: removed already.
    }
  }

  /**
   * Kills what is left, waits (at most `waitMs`) until the cgroup is empty and removes it. Resolves
   * false when it could not be removed (a process stuck in the kernel): it is left, killed, for the log.
   */
  async remove(waitMs: number): Promise<boolean> {
    this.kill();
    const until = Date.now() + waitMs;
    for (;;) {
      try {
        rmdirSync(this.dir);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return true;
        // EBUSY: a killed process has not left yet.
        if (code !== 'EBUSY' || Date.now() >= until) return false;
      }
      await sleep(EMPTY_POLL_MS);
    }
  }

  private pids(): number[] {
    let text: string;
    try {
      text = readFileSync(this.procsFile, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  }
}
