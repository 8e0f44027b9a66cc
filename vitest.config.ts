import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import { endToEndFirst } from './test/support/end-to-end-first-sequencer.js';

// Half again as many test files at once as there are cores: the files wait on server processes,
// PostgreSQL and run time limits as well as compute. On the 2-core machine, one file at a time
// (vitest's default there) took 534 s and kept the cores 111 % busy; three took 357 s at 176 %.
const workers = Math.max(1, Math.round(availableParallelism() * 1.5));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: workers,
    // As many from the start. With fewer, and workers kept across files, vitest 3's pool (tinypool)
    // often ends the run with an unhandled "Terminating worker thread" rejection that fails it: in
    // runs of a few small files, 4 of 6 with the default of 1, 8 of 8 with 0, none of 18 with 3.
    minWorkers: workers,
    // A worker keeps the modules it has loaded from one test file to the next instead of loading the
    // app afresh for each of the 133 files: collecting went from 93 s to 16 s of the workers' time,
    // the suite from 357 s to 265 s alone. No test file stubs modules, globals or the environment
    // (a file that needs to would set `isolate` back for itself through a project of its own).
    isolate: false,
    // The files that start servers and wait on them first, also in a fresh clone (see the sequencer).
    sequence: { sequencer: endToEndFirst(BaseSequencer) },
    // `expect.poll` gives up after 1 s by default, too short beside the dashboard's suite on two cores.
    expect: { poll: { timeout: 15_000 } },
    // The type tests' own files and what they import (tsconfig.typecheck.json), not the whole project:
    // vitest runs tsc on the tsconfig it is given, and with tsconfig.json that was a full type check of
    // src/, test/, bench/ and scripts/ beside the suite (86 s in one run), which `npm run typecheck`
    // already does in CI.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.typecheck.json' },
    // After the usual output, the ten slowest files of the run (test/support/slowest-files-reporter.ts);
    // what failed goes to test-results/ for npm test to print last (test/support/failures-reporter.ts).
    reporters: ['default', './test/support/slowest-files-reporter.ts', './test/support/failures-reporter.ts'],
  },
});
