import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where execvp looks when the environment has no PATH. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Why `file` cannot be started, as execvp would find it (a name with a slash from `cwd`, a bare name on
 * `path`), or undefined when it can. The program is started through a shell when it is contained or
 * memory-limited, and a shell that cannot `exec` only exits 127: looking first keeps a missing
 * program the start failure it is, however the program is started.
 */
export function programUnstartable(file: string, cwd: string, path: string | undefined): string | undefined {
  const candidates = file.includes('/') ? [resolve(cwd, file)] : (path ?? DEFAULT_PATH).split(':').map((dir) => resolve(cwd, dir, file));
  let found: string | undefined;
  for (const candidate of candidates) {
    if (!isFile(candidate)) continue;
    found ??= candidate;
    try {
      accessSync(candidate, constants.X_OK);
      return undefined;
    } catch {
      // Not executable: execvp goes on along the PATH.
    }
  }
  return found === undefined ? `no such file (ENOENT)` : `${found} is not executable (EACCES)`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
