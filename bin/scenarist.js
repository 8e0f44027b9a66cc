#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script),
// bundled into one file where that is current (see cli-module.js).
import { cliModule } from './cli-module.js';

const { main } = await import(cliModule(new URL('..', import.meta.url)));

// Exit explicitly once a command is done: a drained server or worker must not linger on a stray handle.
main(process.argv.slice(2)).then(
  (code) => process.exit(typeof code === 'number' ? code : 0),
  (err) => {
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
