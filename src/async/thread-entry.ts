import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Names a compiled build (a `dist/` folder) of the sources that are running, when there is one to trust. */
export const COMPILED_ROOT_ENV = 'SCENARIST_COMPILED_ROOT';

/** What piscina needs to start a thread on an entry module: its URL, and a loader when it is TypeScript. */
export interface ThreadEntry {
  readonly filename: string;
  readonly execArgv?: string[];
}

/**
 * The entry module `name` of a worker thread, in the folder of `moduleUrl` (the module starting the
 * threads). From dist/ that is the compiled `.js`. When the sources themselves run (`.ts`, as in the test
 * suites), a thread imports them through tsx, whose loader hooks then see every module the thread
 * imports, node_modules included: 1.5-2 s of CPU a thread, against 0.5 s for the compiled entry
 * (measured on the 2-core CI machine). So when `SCENARIST_COMPILED_ROOT` names a build of these very
 * sources (the test setup compiles dist/ before every run and sets it), threads start from the build.
 */
export function threadEntry(moduleUrl: string, name: string, env: NodeJS.ProcessEnv = process.env): ThreadEntry {
  if (!moduleUrl.endsWith('.ts')) return { filename: new URL(`./${name}.js`, moduleUrl).href };
  const compiledRoot = env[COMPILED_ROOT_ENV];
  if (compiledRoot) {
    // dist/ mirrors the checkout: <root>/src/x/y.ts compiles to <root>/dist/src/x/y.js.
    const folder = relative(dirname(compiledRoot), dirname(fileURLToPath(moduleUrl)));
    const compiled = join(compiledRoot, folder, `${name}.js`);
    if (!folder.startsWith('..') && existsSync(compiled)) return { filename: pathToFileURL(compiled).href };
  }
  return { filename: new URL(`./${name}.ts`, moduleUrl).href, execArgv: [...process.execArgv, '--import', 'tsx'] };
}
