import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_ROOT_ENV } from '../../src/async/thread-entry.js';
import { createPostgresTemplate, TEMPLATE_ENV } from './postgres-template.js';
import { providePostgres } from './test-postgres.js';
import { buildServer, prebuilt } from './test-build.js';

/**
 * Runs once before every test file:
 * - End-to-end tests run the real CLI from dist/, so the build must match the sources under test.
 *   Building here (a few seconds, unless `npm test` has just built it) keeps a stale dist/ from ever
 *   being tested. The worker threads of the in-process apps start from it too.
 * - The PostgreSQL suites need a server: the configured or local one, or an embedded one started
 *   here. Its URL reaches the test workers through the environment they inherit, and so does the name
 *   of the migrated template database that test databases are copied from (postgres-template.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (!prebuilt()) buildServer();
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
