import { statSync } from 'node:fs';

/**
 * Which module holds the CLI under `root` (a checkout or an installed package, as a file: URL ending
 * in `/`): the one bundled file (dist/bundle/cli.js, `npm run build`) when it is at least as new as
 * the compile it was made from, so start-up reads one file instead of some two thousand modules; else
 * the compiled modules (dist/src/cli.js). A compile made after the bundle (tsc alone) leaves the
 * bundle stale, and it is not used.
 */
export function cliModule(root) {
  const modified = (path) => statSync(new URL(path, root), { throwIfNoEntry: false })?.mtimeMs;
  const bundle = modified('dist/bundle/cli.js');
  const compiled = modified('dist/.tsbuildinfo');
  return new URL(bundle !== undefined && (compiled === undefined || bundle >= compiled) ? 'dist/bundle/cli.js' : 'dist/src/cli.js', root).href;
}
