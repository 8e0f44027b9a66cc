import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import { endToEndFirst } from '../test/support/end-to-end-first-sequencer.ts';

// Two projects: component tests in a DOM (fast, no server) and end-to-end tests that start the real
// server process and drive Debian's Chromium. JSX is compiled by esbuild here (Vitest 3 runs its own Vite).
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  // As in vite.config.ts: the server package's typed client and data-edit rules from its sources.
  resolve: {
    alias: {
      'scenarist/client': fileURLToPath(new URL('../src/client/index.ts', import.meta.url)),
      'scenarist/edit-rules': fileURLToPath(new URL('../src/domain/edits/index.ts', import.meta.url)),
      // The row comparison Compare's inputs use (src/scenarios/tree/table-diff.ts): the Data page diffs two versions with it.
      'scenarist/table-diff': fileURLToPath(new URL('../src/scenarios/tree/table-diff.ts', import.meta.url)),
    },
  },
  test: {
    // The e2e files each start a server and a browser: one at a time on a small machine. Two at a
    // time beside the root suite (2026-12-03, docs/testing.md) ended the dashboard's suite sooner and
    // the root suite as much later: the cores, not the waits, bound both. The e2e files come first
    // (../test/support/end-to-end-first-sequencer.ts).
    fileParallelism: false,
    sequence: { sequencer: endToEndFirst(BaseSequencer) },
    // `expect.poll` gives up after 1 s by default: beside the server's suite on two cores, a page's
    // second query can take longer than that to arrive. A poll that names its own timeout keeps it.
    expect: { poll: { timeout: 15_000 } },
    // After the usual output, the ten slowest files of the run; what failed to test-results/ (the root's reporters, shared by both suites).
    reporters: ['default', '../test/support/slowest-files-reporter.ts', '../test/support/failures-reporter.ts'],
    projects: [
      {
        extends: true,
        // Waits give up after 10 s (test/setup.ts); a test gets longer than that.
        test: { name: 'unit', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom', setupFiles: ['test/setup.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
