import { SettingError } from '../config/setting-error.js';
import type { Settings } from '../config/settings.js';
import { parseInteger } from '../config/parse-value.js';
import { exitCodeAfterSignal } from './graceful-shutdown.js';
import { createLogger } from './logger.js';
import { loadDomain } from '../domain/load.js';
import { DEFAULT_CANCEL_GRACE_MS, externalLimitsOf, KILL_MARGIN_MS } from '../runtime/external-limits.js';
import { announceContainment } from '../runtime/external-containment.js';
import { startWorkerEvents } from '../runtime/live-events.js';
import { connectionsFor } from '../executor/distributed/connection-budget.js';
import { openStore } from '../store/store.js';
import { RunEvents } from '../executor/events.js';
import { DistributedExecutor } from '../executor/distributed/distributed-executor.js';
import { NoticeListener } from '../store/postgres/notice-listener.js';

/**
 * `scenarist worker`: a process that only runs scenarios of a PostgreSQL-backed deployment (no HTTP).
 * Resolves with the exit code once SIGINT/SIGTERM has stopped it: its running scenarios are put
 * back in the queue for another worker.
 */
export async function runWorkerProcess(settings: Settings, extra: Readonly<Record<string, string>>): Promise<number> {
  const concurrency = extra.concurrency === undefined ? settings.workers : parseInteger('concurrency', extra.concurrency, 1, 1024);
  if (concurrency === 0) throw new SettingError('concurrency', 'a worker process needs at least 1');
  const log = createLogger(settings);
  // Loaded here too, so a broken domain module stops the worker at once with a clear message.
  const domain = await loadDomain(settings.domain);
  // This process runs the external programs: it says how it contains them (it has no readiness probe).
  await announceContainment(domain, log);
  // No HTTP here: the store serves this process's runs only (see `connectionsFor`).
  const store = await openStore(settings.databaseUrl, { owner: true, maxConnections: connectionsFor(concurrency), speedLayersOff: settings.speedLayersOff });
  const events = new RunEvents((err, name) => log.error({ err, event: name }, 'a run event listener failed'));
  // Runs happen here on PostgreSQL: their events are logged here, and every API node streams them.
  const workerEvents = await startWorkerEvents({ store, events, log });
  // The process's one LISTEN connection: cancels of its runs are heard on it.
  const notices = new NoticeListener(settings.databaseUrl, log);
  const executor = new DistributedExecutor({
    store,
    events,
    log,
    databaseUrl: settings.databaseUrl,
    notices,
    domain: settings.domain,
    workers: concurrency,
    maxRunningPerSession: settings.maxRunningPerSession,
    timeLimits: domain.timeLimits(settings.runTimeLimitMs),
    externalLimits: externalLimitsOf(settings),
    // The thread of a stopped run sends its external program's SIGKILL: it must outlive that grace.
    cancelGraceMs: Math.max(DEFAULT_CANCEL_GRACE_MS, settings.externalKillGraceMs + KILL_MARGIN_MS),
    threadHeapLimitMb: settings.workerHeapLimitMb,
    poolIdleMs: settings.workerIdleTimeoutMs,
    speedLayersOff: settings.speedLayersOff,
  });
  try {
    await executor.start();
  } catch (err) {
    await workerEvents.close();
    await notices.close();
    await store.close();
    throw err;
  }
  // A worker process is there to run scenarios: its threads start now rather than with the first
  // sweep's runs, which would otherwise wait for every thread's start at once.
  executor.warm();
  log.info({ concurrency }, 'scenarist worker ready');
  return exitCodeAfterSignal(log, async () => {
    await executor.close();
    await workerEvents.close();
    await notices.close();
    await store.close();
  });
}
