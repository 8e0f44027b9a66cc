import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../config/settings.js';
import { SettingError } from '../config/setting-error.js';
import { domainModuleUrl, EXAMPLE_DOMAIN } from '../domain/load.js';
import { DevSupervisor } from './dev/supervisor.js';
import { DomainTypechecker, loadTypescript } from './dev/typecheck.js';

export const DEV_HELP = `
"scenarist dev" takes the flags of "serve". It type-checks the domain (a type error stops it, exit
code 2), serves it, and on every change of a .ts/.js/.json file in the domain's directory type-checks
and loads it again, then restarts the server on the same data. A change that does not type-check or
load is reported and the previous version keeps serving. A domain manifest (--domain
scenarist.domain.json) is not type-checked but validated as it loads, and reloaded the same way on a
change of it or of its programs.`;

/** `scenarist dev`: `serve` under a supervisor that reloads the domain when its files change. */
export async function dev(settings: Settings, argv: readonly string[]): Promise<number> {
  const url = settings.domain === EXAMPLE_DOMAIN ? undefined : domainModuleUrl(settings.domain);
  if (url === undefined || !url.startsWith('file:')) {
    throw new SettingError('domain', 'scenarist dev needs a domain file to watch, e.g. --domain ./domain.ts or --domain ./scenarist.domain.json');
  }
  const file = fileURLToPath(url);
  const checker = /\.[cm]?ts$/.test(file) ? new DomainTypechecker(loadTypescript(file), file) : undefined;
  return new DevSupervisor({
    domainDir: dirname(file),
    checker,
    serveArgs: ['serve', ...argv],
    healthUrl: `http://${loopbackHost(settings.host)}:${settings.port}/health`,
    dataDir: settings.dataDir,
  }).run();
}

/** Where this machine reaches a server bound to `host` (a wildcard address is reached on loopback). */
function loopbackHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
