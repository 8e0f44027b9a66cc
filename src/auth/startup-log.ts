import type { Logger } from 'pino';
import { isLoopbackHost } from '../config/loopback.js';
import type { Settings } from '../config/settings.js';
import type { Store } from '../store/store.js';
import { TokensRepository } from '../store/tokens-repository.js';

/** One start-up line saying whether requests need a token, and why; a warning when that may surprise. */
export async function logAuthMode(log: Logger, settings: Settings, store: Store): Promise<void> {
  const loopback = isLoopbackHost(settings.host);
  if (settings.auth === 'none') {
    if (loopback) log.info({ auth: 'none' }, `authentication off: ${settings.host} is a loopback address (--auth token turns it on)`);
    else log.warn({ auth: 'none' }, `authentication off on ${settings.host}, a non-loopback address, as --auth none asks: anyone who can reach it has full access`);
    return;
  }
  const reason = loopback ? 'as the auth setting asks' : `${settings.host} is not a loopback address (--auth none turns it off)`;
  log.info({ auth: 'token' }, `authentication on: every route but health, docs and UI needs "Authorization: Bearer <token>"; ${reason}`);
  if ((await new TokensRepository(store.db).countUsable()) === 0) {
    log.warn({ auth: 'token' }, 'no API token exists yet: create one with "scenarist token create --scope admin"');
  }
}
