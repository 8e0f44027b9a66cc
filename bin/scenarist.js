#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
import { statSync } from 'node:fs';

/**
 * The CLI as one bundled file (dist/bundle/cli.js, `npm run build`) when there is one at least as new
 * as the compiled sources it was made from: start-up then reads one file instead of some two thousand
 * modules. A compile made after it (tsc alone, as the test setup did before it bundled) leaves it
 * stale, and the compiled modules run instead.
 */
function cliModule() {
  const modified = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
  const bundle = modified('../dist/bundle/cli.js');
  const compiled = modified('../dist/.tsbuildinfo');
  return bundle !== undefined && (compiled === undefined || bundle >= compiled) ? '../dist/bundle/cli.js' : '../dist/src/cli.js';
}

const { main } = await import(cliModule());

// Exit explicitly once a command is done: a drained server or worker must not linger on a stray handle.
main(process.argv.slice(2)).then(
  (code) => process.exit(typeof code === 'number' ? code : 0),
  (err) => {
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
