import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadFlags } from './thread-flags.js';

/** Names a compiled build (a `dist/` folder) of the sources that are running, when there is one to trust. */
export const COMPILED_ROOT_ENV = 'SCENARIST_COMPILED_ROOT';

/** What piscina needs to start a thread on an entry module: its URL, and the thread's Node options. */
export interface ThreadEntry {
  readonly filename: string;
  readonly execArgv: string[];
}

/**
 * piscina loads a thread's entry with require() before it tries import(). Where require() loads ES
 * modules (Node 20.19 and later), a thread terminated while that require() is still instantiating the
 * entry aborts the whole process with a V8 fatal error ("v8::Module::IsGraphAsync must be used on an
 * instantiated module"): a pool destroyed in the second its threads start (a server stopped right
 * after it started) took its process down in 2 of 3 runs of 40 such pools. Without require(esm),
 * piscina imports the entry, and a thread terminated mid-import just ends. Of the process's own
 * options, a thread gets those it accepts (`threadFlags`).
 */
function threadExecArgv(extra: readonly string[] = []): string[] {
  const requireLoadsEsm = (process.features as { require_module?: boolean }).require_module === true;
  return [...threadFlags(process.execArgv), ...extra, ...(requireLoadsEsm ? ['--no-experimental-require-module'] : [])];
}

/** Set to `true` by the bundler (scripts/bundle.mjs) in the code it bundles; undeclared elsewhere. */
declare const __SCENARIST_BUNDLED__: boolean | undefined;

/**
 * Whether this code runs from the bundle (dist/bundle/), whose build also bundled every thread's entry
 * beside it. A thread then starts on its bundled entry: 45 ms of CPU to load instead of 280 ms for the
 * compiled modules, paid by every thread of every process (32 threads starting at once on two cores
 * took seconds from a sweep's first runs).
 */
function runsFromBundle(): boolean {
  return typeof __SCENARIST_BUNDLED__ !== 'undefined' && __SCENARIST_BUNDLED__;
}

/**
 * The entry module `name` of a worker thread, in the folder of `moduleUrl` (the module starting the
 * threads); from the bundle, the bundled entry of that name (`runsFromBundle`). From dist/ that is the
 * compiled `.js`. When the sources themselves run (`.ts`, as in the test
 * suites), a thread imports them through tsx, whose loader hooks then see every module the thread
 * imports, node_modules included: 1.5-2 s of CPU a thread, against 0.5 s for the compiled entry
 * (measured on the 2-core CI machine). So when `SCENARIST_COMPILED_ROOT` names a build of these very
 * sources (the test setup compiles dist/ and bundles it before every run, and sets it), threads start
 * from the build: from its bundle when that is current (`currentBundledEntry`), as a server's threads
 * do, else from the compiled entry. Under the test suite a run thread on the compiled entry was busy
 * 2.2 s loading some 600 modules, more than any test had it work.
 */
export function threadEntry(moduleUrl: string, name: string, env: NodeJS.ProcessEnv = process.env): ThreadEntry {
  if (runsFromBundle()) return { filename: new URL(`../../bundle/${name}.js`, import.meta.url).href, execArgv: threadExecArgv() };
  if (!moduleUrl.endsWith('.ts')) return { filename: new URL(`./${name}.js`, moduleUrl).href, execArgv: threadExecArgv() };
  const compiledRoot = env[COMPILED_ROOT_ENV];
  if (compiledRoot) {
    // dist/ mirrors the checkout: <root>/src/x/y.ts compiles to <root>/dist/src/x/y.js.
    const folder = relative(dirname(compiledRoot), dirname(fileURLToPath(moduleUrl)));
    const compiled = join(compiledRoot, folder, `${name}.js`);
    if (!folder.startsWith('..') && existsSync(compiled)) {
      return { filename: pathToFileURL(currentBundledEntry(compiledRoot, name) ?? compiled).href, execArgv: threadExecArgv() };
    }
  }
  return { filename: new URL(`./${name}.ts`, moduleUrl).href, execArgv: threadExecArgv(['--import', 'tsx']) };
}

/**
 * The bundled entry `name` of the build at `compiledRoot` (`dist/bundle/<name>.js`) when the bundle is
 * at least as new as the compile it was made from, as bin/cli-module.js decides for the CLI: a compile
 * made after the bundle (tsc alone) leaves it stale, and it is not used.
 */
function currentBundledEntry(compiledRoot: string, name: string): string | undefined {
  const bundled = join(compiledRoot, 'bundle', `${name}.js`);
  const bundledAt = statSync(bundled, { throwIfNoEntry: false })?.mtimeMs;
  const compiledAt = statSync(join(compiledRoot, '.tsbuildinfo'), { throwIfNoEntry: false })?.mtimeMs;
  return bundledAt !== undefined && (compiledAt === undefined || bundledAt >= compiledAt) ? bundled : undefined;
}
