import type { Settings } from '../config/settings.js';
import type { DomainRegistry } from '../domain/registry.js';
import { logAuthMode } from '../auth/startup-log.js';
import { sweepStagingAtStart } from '../datasets/ingest/leftover-uploads.js';
import { buildApp } from '../http/app.js';
import { assemble } from '../runtime/assemble.js';
import { exitCodeAfterSignal } from './graceful-shutdown.js';
import { createLogger } from './logger.js';

/**
 * `scenarist serve`: starts the service and resolves with the exit code once SIGINT/SIGTERM has
 * drained it (stop accepting, finish in-flight requests, stop workers, close the store). `domain` is
 * the domain already loaded (by `scenarist dev`'s spare server), else loaded from the settings.
 */
export async function serve(settings: Settings, domain?: DomainRegistry): Promise<number> {
  const log = createLogger(settings);
  const runtime = await assemble(settings, log, domain);
  const app = await buildApp(runtime.services, { logger: log });
  await logAuthMode(log, settings, runtime.services.store);
  // Before listening: no upload of this process is in flight yet.
  await sweepStagingAtStart(settings.dataDir, log);
  let address: string;
  try {
    address = await app.listen({ host: settings.host, port: settings.port });
  } catch (err) {
    await runtime.close();
    throw new Error(`cannot listen on ${settings.host}:${settings.port}: ${(err as Error).message}`, { cause: err });
  }
  // Where to point a browser or a client: the dashboard beside the API.
  const api = `${address}${settings.prefix}`;
  log.info({ prefix: settings.prefix, api, dashboard: `${api}/ui/`, database: settings.databaseUrl.split(':')[0], workers: settings.workers }, `scenarist ready: dashboard ${api}/ui/, API ${api}`);

  return exitCodeAfterSignal(
    log,
    async () => {
      await app.close();
      await runtime.close();
    },
    { started: () => runtime.services.readiness.shutdownStarted(), delayMs: settings.shutdownDelayMs },
  );
}
