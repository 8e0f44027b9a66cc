import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { providePostgres } from '../../../test/support/test-postgres.ts';

/**
 * The end-to-end tests run the real CLI (from dist/) serving the real build of the app (web/dist):
 * build both first, so a stale build is never what is tested. PostgreSQL comes as for the root
 * suites: the configured or local server, or an embedded one started here.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const web = fileURLToPath(new URL('../..', import.meta.url));
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch (err) {
    const out = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    console.warn(`e2e setup: tsc reported errors (build emitted anyway):\n${out.split('\n').slice(0, 10).join('\n')}`);
  }
  execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });

  if (!(process.env.SCENARIST_TEST_DIALECTS ?? 'sqlite,postgres').includes('postgres')) return async () => {};
  const postgres = await providePostgres();
  process.env.SCENARIST_TEST_POSTGRES_URL = postgres.url;
  return () => postgres.stop();
}
