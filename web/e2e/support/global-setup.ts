import { ensureChromium } from '../../../test/support/ensure-chromium.ts';
import { buildDashboard, buildServer, prebuilt } from '../../../test/support/test-build.ts';
import { providePostgres } from '../../../test/support/test-postgres.ts';

/**
 * The end-to-end tests run the real CLI (from dist/) serving the real build of the app (web/dist):
 * build both first (unless `npm test` has just built them), so a stale build is never what is
 * tested. PostgreSQL comes as for the root suites: the configured or local server, or an embedded
 * one started here. Run alone (not from `npm test`), it also makes sure of Debian's Chromium.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (!prebuilt()) {
    ensureChromium();
    buildServer();
    buildDashboard();
  }

  if (!(process.env.SCENARIST_TEST_DIALECTS ?? 'sqlite,postgres').includes('postgres')) return async () => {};
  const postgres = await providePostgres();
  process.env.SCENARIST_TEST_POSTGRES_URL = postgres.url;
  return () => postgres.stop();
}
