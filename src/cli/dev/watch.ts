import { watch } from 'chokidar';
import { isAbsolute, relative, sep } from 'node:path';

/**
 * Files whose change may change the domain: code and JSON (tsconfig.json, package.json, data the code
 * imports), and the sources of external algorithms' programs (Python, R, Julia, Ruby, shell, awk, Lua,
 * Perl, and model files of AMPL, MiniZinc and LP solvers).
 */
const WATCHED = /\.(?:[cm]?[jt]s|json|py|r|jl|rb|sh|awk|lua|pl|mod|dat|mzn|lp)$/i;
/** Python writes its bytecode cache next to the modules a program imports: never a change of the domain. */
const IGNORED_DIRS = new Set(['node_modules', '.git', 'dist', '__pycache__']);

export interface DomainWatcher {
  /** Resolves once the initial scan is done: a save from then on is reported. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Calls `onChange` once a burst of changes under `dir` has been quiet for `quietMs` (an editor's save is
 * often several events). chokidar sees every way an editor saves: in place, through a temp file renamed
 * over the original (vim, JetBrains, VS Code's safe write: chokidar's `atomic` folds the unlink and add
 * into one change), new files in new folders, and files deleted then created again. Ignores
 * node_modules, .git, dist and `ignoreDir` (the data directory, which the server writes to all the time).
 */
export function watchDomainDir(dir: string, ignoreDir: string, onChange: (files: string[]) => void, quietMs = 40): DomainWatcher {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const ignored = relative(dir, ignoreDir);
  const insideIgnored = ignored !== '' && !ignored.startsWith('..') && !isAbsolute(ignored);
  const skipped = (path: string, isFile: boolean | undefined): boolean => {
    const name = relative(dir, path);
    if (name === '') return false;
    if (name.split(sep).some((part) => IGNORED_DIRS.has(part))) return true;
    if (insideIgnored && (name === ignored || name.startsWith(ignored + sep))) return true;
    // Directories are entered; of files, only code and JSON count (an editor's swap file does not).
    return isFile === true && !WATCHED.test(name);
  };
  const watcher = watch(dir, {
    ignoreInitial: true,
    atomic: true,
    ignored: (path, stats) => skipped(path, stats?.isFile()),
  });
  const report = (path: string) => {
    if (!WATCHED.test(path) || skipped(path, true)) return;
    changed.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, quietMs);
  };
  watcher.on('add', report).on('change', report).on('unlink', report);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
