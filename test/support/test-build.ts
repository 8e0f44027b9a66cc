import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));

/**
 * Set by `npm test` once it has built what both suites test (see prebuild.ts). The root suite and the
 * dashboard's run side by side there, and a build that one of them started while the other's servers
 * already read dist/ would hand those servers half-written files: so the suites build only when run alone.
 */
const PREBUILT_ENV = 'SCENARIST_TEST_PREBUILT';

/**
 * The server's build (dist/ and its bundle), from the sources under test: end-to-end tests run the real CLI from it,
 * and the in-process apps start their worker threads from it. tsc emits even when it reports type
 * errors; those fail `npm run typecheck` in CI, so here they are only printed.
 */
export function buildServer(): void {
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, stdio: 'pipe' });
  } catch (err) {
    const out = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    console.warn(`test build: tsc reported errors (build emitted anyway):\n${out.split('\n').slice(0, 10).join('\n')}`);
  }
  execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // The one-file CLI that bin/scenarist.js starts (the end-to-end tests' servers), from the compile above.
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd: REPO_ROOT, stdio: 'pipe' });
}

/** The dashboard's build (web/dist), which the server serves at /ui. */
export function buildDashboard(): void {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: WEB_ROOT, stdio: 'inherit' });
}

/** True when `npm test` has already built both, for this very run. */
export function prebuilt(): boolean {
  return process.env[PREBUILT_ENV] === '1';
}
