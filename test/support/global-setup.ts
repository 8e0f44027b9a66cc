import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_ROOT_ENV } from '../../src/async/thread-entry.js';
import { createPostgresTemplate, TEMPLATE_ENV } from './postgres-template.js';
import { providePostgres } from './test-postgres.js';

/**
 * Runs once before every test file:
 * - End-to-end tests run the real CLI from dist/, so the build must match the sources under test.
 *   Building here (a few seconds) keeps a stale dist/ from ever being tested. The worker threads of
 *   the in-process apps start from it too. tsc emits even when it reports type errors; those fail
 *   `npm run typecheck` in CI, so here they are only printed.
 * - The PostgreSQL suites need a server: the configured or local one, or an embedded one started
 *   here. Its URL reaches the test workers through the environment they inherit, and so does the name
 *   of the migrated template database that test databases are copied from (postgres-template.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch (err) {
    const out = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    console.warn(`global-setup: tsc reported errors (build emitted anyway):\n${out.split('\n').slice(0, 10).join('\n')}`);
  }
  execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: root, stdio: 'inherit' });
  // Just built from these sources: worker threads start from it rather than load tsx (see thread-entry.ts).
  process.env[COMPILED_ROOT_ENV] = join(root, 'dist');

  const dialects = process.env.SCENARIST_TEST_DIALECTS ?? 'sqlite,postgres';
  if (!dialects.includes('postgres')) return async () => {};
  const postgres = await providePostgres();
  process.env.SCENARIST_TEST_POSTGRES_URL = postgres.url;
  const template = await createPostgresTemplate(postgres.url);
  process.env[TEMPLATE_ENV] = template.name;
  return async () => {
    await template.drop();
    await postgres.stop();
  };
}
