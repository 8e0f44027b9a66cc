import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Half again as many test files at once as there are cores: the files wait on server processes,
    // PostgreSQL and run time limits more than they compute. On the 2-core machine, one file at a
    // time (vitest's default there) kept the cores 111 % busy and took 534 s; three took 357 s at
    // 176 %, every test passing (docs/testing.md).
    maxWorkers: Math.max(1, Math.round(availableParallelism() * 1.5)),
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
