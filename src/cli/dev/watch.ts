import { watch, type FSWatcher } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Files whose change may change the domain: code and JSON (tsconfig.json, package.json, data the code imports). */
const WATCHED = /\.(?:[cm]?[jt]s|json)$/;
const IGNORED_DIRS = new Set(['node_modules', '.git', 'dist']);

/**
 * Calls `onChange` once a burst of changes under `dir` has been quiet for `quietMs` (an editor's save is
 * often several events). Ignores node_modules, .git, dist and `ignoreDir` (the data directory, which the
 * server writes to all the time). Recursive: Node 20 watches subdirectories on Linux, macOS and Windows.
 */
export function watchDomainDir(dir: string, ignoreDir: string, onChange: (files: string[]) => void, quietMs = 250): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const ignored = relative(dir, ignoreDir);
  const insideIgnored = ignored !== '' && !ignored.startsWith('..') && !isAbsolute(ignored);
  const watcher = watch(dir, { recursive: true }, (_event, filename) => {
    if (!filename) return;
    const name = filename.toString();
    if (!WATCHED.test(name) || name.split(sep).some((part) => IGNORED_DIRS.has(part))) return;
    if (insideIgnored && (name === ignored || name.startsWith(ignored + sep))) return;
    changed.add(join(dir, name));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, quietMs);
  });
  watcher.on('close', () => clearTimeout(timer));
  return watcher;
}
