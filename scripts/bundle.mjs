// Bundles the compiled CLI (dist/src/cli.js) and the packages it loads into one file,
// dist/bundle/cli.js (with a chunk per command), which bin/scenarist.js starts when it is there and current: start-up then
// reads one file instead of some two thousand modules (see docs/architecture.md, "Start-up").
//
// Left outside the bundle, loaded from where they are:
// - the public API that domain modules import (dist/src/index.js and what it imports): a domain's
//   `defineAlgorithm` and the server must share one copy of each class (`ParameterError`,
//   `ScenaristError`) for `instanceof` to hold across them;
// - native and optional drivers (better-sqlite3, pg and graphile-worker, loaded only for
//   PostgreSQL), and the loaders used only for TypeScript domains (tsx, typescript).
// Worker threads started from the bundle start on their own bundled entries (worker-entry.js,
// ingest-worker.js), which share its chunks.
//
// The bundled example domain is a second entry (dist/bundle/example-domain.js, which `scenarist:example`
// loads when it is current, see src/domain/load.ts): its 32 modules and the some 200 ES modules of
// TypeBox that it imports were a fifth of the server's start, and were read again by every thread.
// Splitting gives TypeBox one chunk, shared with the server's own code.
//
// A module inside the bundle still sees its own location: every `import.meta.url` of a dist/ file
// and every `__dirname`/`__filename` of a package file is rewritten to the file it was bundled from,
// computed from the bundle's own URL at run time, so files found beside a module (the example
// domain, thread entries, the dashboard's assets, Swagger UI's static files) are found as before.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = resolve(ROOT, 'dist/src/cli.js');
const OUTDIR = resolve(ROOT, 'dist/bundle');
const EXAMPLE_DOMAIN = resolve(ROOT, 'dist/examples/warehouse/index.js');
// The threads' entries: a thread started from a bundled server starts on its bundled entry
// (src/async/thread-entry.ts), reading a few files instead of some six hundred modules.
const THREAD_ENTRIES = {
  'worker-entry': resolve(ROOT, 'dist/src/executor/host/worker-entry.js'),
  'ingest-worker': resolve(ROOT, 'dist/src/datasets/ingest/ingest-worker.js'),
};
const PUBLIC_API = resolve(ROOT, 'dist/src/index.js');
const EXTERNAL_PACKAGES = ['better-sqlite3', 'pg', 'pg-native', 'graphile-worker', 'tsx', 'tsx/*', 'typescript'];

/** A path from the bundle's folder to `file`, in URL form (`../src/http/ui.js`). */
function fromBundle(file) {
  return relative(OUTDIR, file).split(sep).join('/');
}

/** The dist/ files of the public API, as the domain module imports them. */
async function publicApiFiles() {
  const { metafile } = await esbuild.build({ entryPoints: [PUBLIC_API], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', outdir: 'unused', logLevel: 'silent' });
  return new Set(Object.keys(metafile.inputs).map((input) => resolve(ROOT, input)));
}

/** Imports of the public API stay imports of its dist/ files (one copy, shared with the domain). */
function sharedPublicApi(files) {
  return {
    name: 'shared-public-api',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (!files.has(target)) return undefined;
        return { path: `./${fromBundle(target)}`, external: true };
      });
    },
  };
}

/** A leading `'use strict'` directive, after any comments. */
const STRICT_PROLOGUE = /^(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/))*\s*(['"])use strict\3;?/;

/** Each module keeps its own location: `import.meta.url` in dist/ files, `__dirname`/`__filename` in package files. */
function ownLocation() {
  return {
    name: 'own-location',
    setup(build) {
      build.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const inPackage = args.path.includes(`${sep}node_modules${sep}`);
        // `import.meta` itself would make esbuild read a CommonJS file as an ES module: the banner's copy instead.
        const here = `new URL(${JSON.stringify(fromBundle(args.path))}, __bundleUrl)`;
        if (!inPackage && text.includes('import.meta.url')) {
          return { contents: `const __ownUrl = ${here}.href;\n${text.replaceAll('import.meta.url', '__ownUrl')}`, loader: 'js' };
        }
        if (inPackage && /\b__(dirname|filename)\b/.test(text)) {
          // Declared inside the module's CommonJS wrapper, so each package file gets its own.
          // After a 'use strict' prologue, which must stay first to keep the module strict.
          const prelude = `\nvar __filename = __bundleFileUrlToPath(${here}); var __dirname = __bundleDirname(__filename);\n`;
          const prologue = STRICT_PROLOGUE.exec(text)?.[0] ?? '';
          return { contents: prologue + prelude + text.slice(prologue.length), loader: 'js' };
        }
        return undefined;
      });
    },
  };
}

// CommonJS packages inside an ES module bundle call `require` for Node's built-ins: give them one.
const BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileUrlToPath } from 'node:url';",
  "import { dirname as __bundleDirname } from 'node:path';",
  'const __bundleUrl = import.meta.url;',
  'const require = __bundleCreateRequire(__bundleUrl);',
].join('\n');

// Chunks of an earlier build would linger beside the new ones.
rmSync(OUTDIR, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { cli: ENTRY, 'example-domain': EXAMPLE_DOMAIN, ...THREAD_ENTRIES },
  outdir: OUTDIR,
  // Each command still loads only what it runs (main.ts imports them on demand): \`serve\` reads the
  // entry and its own chunks, never \`dev\`'s file watcher or \`init\`'s templates. Chunks sit beside the
  // entry, where every rewritten location is computed from.
  splitting: true,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // No `keepNames`: it wraps every closure in a naming call, paid each time the closure is made, many
  // times per request. Only where two modules declare one name does esbuild rename one of them; that
  // is refused for the classes of dist/src below (log lines and error types show their names).
  keepNames: false,
  external: EXTERNAL_PACKAGES,
  // What tells code inside the bundle that it runs from the bundle (see src/async/thread-entry.ts).
  define: { __SCENARIST_BUNDLED__: 'true' },
  banner: { js: BANNER },
  plugins: [sharedPublicApi(await publicApiFiles()), ownLocation()],
  metafile: true,
  logLevel: 'warning',
});
refuseRenamedClasses(result.metafile);

/** Fails the build when esbuild renamed a class of dist/src (`ScenaristError2`) to avoid a collision. */
function refuseRenamedClasses(metafile) {
  const ours = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    if (!input.startsWith('dist/src/')) continue;
    for (const [, name] of readFileSync(resolve(ROOT, input), 'utf8').matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)) ours.add(name);
  }
  for (const file of readdirSync(OUTDIR)) {
    for (const [, name, base] of readFileSync(resolve(OUTDIR, file), 'utf8').matchAll(/\bclass\s+(([A-Za-z_$][\w$]*?)\d+)\b/g)) {
      if (ours.has(base) && !ours.has(name)) throw new Error(`bundle: class ${base} was renamed ${name} (two modules declare it); rename one of them`);
    }
  }
}

const inputs = Object.keys(result.metafile.inputs).length;
const outputs = Object.values(result.metafile.outputs);
const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
console.log(`bundle: dist/bundle, ${outputs.length} files from ${inputs} modules, ${(bytes / 1e6).toFixed(1)} MB`);
