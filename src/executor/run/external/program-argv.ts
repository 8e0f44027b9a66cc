import { isAbsolute, resolve } from 'node:path';
import type { ExternalCommand } from '../../../domain/external-algorithm.js';

/** What to spawn: the executable, its arguments and its working directory. */
export interface ProgramArgv {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The program itself (the first element of the command, resolved), whether or not a shell starts it. */
  readonly program: string;
}

const isRelativePath = (arg: string) => arg.startsWith('./') || arg.startsWith('../');

/**
 * The argv of an external algorithm, its `./` and `../` elements resolved against the domain module's
 * directory (`baseDir`), wrapped in `sh` when the program must be set up before it starts: to enter the
 * run's cgroup (`cgroupProcs`, its `cgroup.procs` file) before it can fork, and to set the address-space
 * limit (Node has no setrlimit; `ulimit -v` in a shell that then `exec`s the program limits the program
 * itself). The shell `exec`s the program, so its pid, exit status and signal are the program's.
 */
export function programArgv(external: ExternalCommand, baseDir: string, memoryBytes: number, cgroupProcs?: string): ProgramArgv {
  const command = external.command.map((arg) => (isRelativePath(arg) ? resolve(baseDir, arg) : arg));
  const cwd = external.cwd === undefined ? baseDir : isAbsolute(external.cwd) ? external.cwd : resolve(baseDir, external.cwd);
  const program = command[0]!;
  if (memoryBytes === 0 && cgroupProcs === undefined) return { file: program, args: command.slice(1), cwd, program };
  const steps: string[] = [];
  // The path comes as an argument, never spliced into the script.
  if (cgroupProcs !== undefined) steps.push('echo $$ > "$1"', 'shift');
  if (memoryBytes > 0) steps.push(`ulimit -v ${Math.max(1, Math.floor(memoryBytes / 1024))}`);
  steps.push('exec "$@"');
  return { file: '/bin/sh', args: ['-c', steps.join(' && '), 'scenarist-external', ...(cgroupProcs === undefined ? [] : [cgroupProcs]), ...command], cwd, program };
}
