import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Debian's Chromium, the one browser the dashboard's tests drive (web/e2e/support/browser.ts reads the same). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Stops the test command with a message that says what is missing and how to get it. */
function refuse(path: string, reason: string): never {
  throw new Error(
    `The dashboard's browser tests need Debian's Chromium at ${path}, and ${reason}. ` +
      `Install it once as root (apt-get update && apt-get install -y chromium), or name another Chromium in SCENARIST_CHROMIUM.`,
  );
}

function run(path: string, args: string[]): void {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) refuse(path, `\`apt-get ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
}

/** Where the browser is expected and who is asking: the machine's by default, another in the tests of this file. */
export interface ChromiumCheck {
  readonly path?: string;
  readonly named?: string;
  readonly root?: boolean;
}

/**
 * What `npm test` needs beyond `npm ci`: the browser. A test tool's own browser download is never used
 * (it cannot be fetched on these machines, and would not be the browser users have): when Chromium is
 * missing, it is installed from Debian's packages as CI does, and the run stops at once with a clear
 * message when that cannot be done (not root, no apt-get), instead of failing every browser test later.
 */
export function ensureChromium({ path = DEFAULT_CHROMIUM, named = process.env.SCENARIST_CHROMIUM, root = process.getuid?.() === 0 }: ChromiumCheck = {}): void {
  if (named !== undefined && named !== '') {
    if (!executable(named)) throw new Error(`SCENARIST_CHROMIUM names ${named}, which is not an executable file.`);
    return;
  }
  if (executable(path)) return;
  if (process.platform !== 'linux' || !onPath('apt-get')) refuse(path, 'this machine has no apt-get to install it with');
  if (!root) refuse(path, 'installing it takes root, which this test run is not');
  console.log(`test setup: ${path} is missing; installing Debian's chromium for the dashboard's browser tests`);
  run(path, ['update', '-qq']);
  run(path, ['install', '-y', '-qq', 'chromium']);
  if (!executable(path)) refuse(path, `apt-get installed chromium but ${path} is still missing`);
}
