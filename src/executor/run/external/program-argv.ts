import { isAbsolute, resolve } from 'node:path';
import type { ExternalCommand } from '../../../domain/external-algorithm.js';

/** What to spawn: the executable, its arguments and its working directory. */
export interface ProgramArgv {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

const isRelativePath = (arg: string) => arg.startsWith('./') || arg.startsWith('../');

/**
 * The argv of an external algorithm, its `./` and `../` elements resolved against the domain module's
 * directory (`baseDir`), wrapped in `sh` to set the address-space limit when there is one: Node has no
 * setrlimit, and `ulimit -v` in a shell that then `exec`s the program limits the program itself.
 */
export function programArgv(external: ExternalCommand, baseDir: string, memoryBytes: number): ProgramArgv {
  const command = external.command.map((arg) => (isRelativePath(arg) ? resolve(baseDir, arg) : arg));
  const cwd = external.cwd === undefined ? baseDir : isAbsolute(external.cwd) ? external.cwd : resolve(baseDir, external.cwd);
  if (memoryBytes === 0) return { file: command[0]!, args: command.slice(1), cwd };
  const kib = Math.max(1, Math.floor(memoryBytes / 1024));
  return { file: '/bin/sh', args: ['-c', `ulimit -v ${kib} && exec "$@"`, 'scenarist-external', ...command], cwd };
}
