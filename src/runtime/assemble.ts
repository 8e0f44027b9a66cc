import type { Logger } from 'pino';
import { ExplanationService } from '../scenarios/explanations/explanation-service.js';
import type { Settings } from '../config/settings.js';
import { speedLayerOn } from '../config/speed-layers.js';
import { createDataTaskPool } from '../datasets/ingest/data-task-pool.js';
import { DatasetService } from '../datasets/service.js';
import { PlanService } from '../decisions/plan-service.js';
import { ReportService } from '../decisions/report-service.js';
import { startServerEvents } from './live-events.js';
import { loadDomain } from '../domain/load.js';
import type { DomainRegistry } from '../domain/registry.js';
import { RunEvents } from '../executor/events.js';
import type { Executor } from '../executor/executor.js';
import { LocalExecutor } from '../executor/local/local-executor.js';
import { ExperimentProgress } from '../experiments/progress-tracker.js';
import { ExperimentService } from '../experiments/service.js';
import { GateService } from '../gates/service.js';
import { gateReportWorkbookOf } from '../gates/gate-report-xlsx.js';
import { AuditService } from '../audit/audit-service.js';
import { AuditPruner } from '../audit/audit-pruner.js';
import type { Services } from '../http/services.js';
import { ScenarioBatchActions } from '../scenarios/batch-actions.js';
import { ScenarioService } from '../scenarios/service.js';
import { PlanChurns } from '../scenarios/results/plan-churn.js';
import { ScenarioBranches } from '../scenarios/tree/branch.js';
import { ScenarioTree } from '../scenarios/tree/scenario-tree.js';
import { ScenarioRebase } from '../datasets/rebase/rebase-service.js';
import { treeDatasets } from './tree-datasets.js';
import { StatusCache } from '../scenarios/status-cache.js';
import { SessionService } from '../sessions/service.js';
import { followRuns } from '../metrics/run-metrics.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { registerStoreGauges } from '../metrics/store-gauges.js';
import { openStore } from '../store/store.js';
import { ViewService } from '../views/view-service.js';
import { AddressPolicy } from '../webhooks/address-policy.js';
import { WebhookService } from '../webhooks/webhook-service.js';
import { widenAllEventWebhooks } from '../webhooks/webhook-events.js';
import { checkSettingsAgainstDomain } from './domain-settings.js';
import { Readiness } from '../store/readiness.js';
import { isSingleWriter } from './single-writer.js';
import { DEFAULT_CANCEL_GRACE_MS, externalLimitsOf, KILL_MARGIN_MS } from './external-limits.js';
import { announceContainment } from './external-containment.js';
import { ScheduleService } from '../schedules/service.js';
import { Ticker } from '../schedules/ticker.js';
import { dropFolderChecks } from '../schedules/drop-checks.js';
import { ScheduleTicksRepository } from '../store/schedule-ticks-repository.js';

/** Uploads in parallel, and one more thread for small ones (see `createDataTaskPool`). */
const UPLOAD_POOL = { work: 'upload', threads: 2, expressThreads: 1 } as const;
/** Domain views drawn in parallel, on threads of their own: a large upload never holds a view back, nor the reverse. */
const VIEW_POOL = { work: 'view', threads: 2, expressThreads: 0 } as const;

export interface Runtime {
  readonly services: Services;
  /** Stops the executor and closes the store. */
  close(): Promise<void>;
}

/**
 * Builds every service of one server process from its settings: the store (migrated), the domain,
 * the executor, and the services the HTTP layer uses. The one composition root.
 */
export async function assemble(settings: Settings, log: Logger, loadedDomain?: DomainRegistry): Promise<Runtime> {
  const domain = loadedDomain ?? (await loadDomain(settings.domain));
  checkSettingsAgainstDomain(settings, domain);
  const store = await openStore(settings.databaseUrl, { owner: true, speedLayersOff: settings.speedLayersOff });
  const events = new RunEvents((err, name) => log.error({ err, event: name }, 'a run event listener failed'));
  // Before the executor starts: its recovery announces requeued runs.
  const webhookPolicy = new AddressPolicy(settings.webhookAllowNetworks);
  // Where many processes share the store (PostgreSQL), one LISTEN connection hears their event
  // numberings and run cancels (loaded only then, as the pg driver is).
  const notices = isSingleWriter(store.dialect)
    ? undefined
    : new (await import('../store/postgres/notice-listener.js')).NoticeListener(settings.databaseUrl, log);
  const serverEvents = await startServerEvents({ store, events, log, notices, webhookPolicy }).catch(async (err: unknown) => {
    await notices?.close();
    await store.close();
    throw err;
  });
  // A registry per runtime (never prom-client's global one): tests run many in one process.
  const metrics = new ServiceMetrics();
  const stopRunMetrics = followRuns(events, store.db, metrics);
  registerStoreGauges(metrics, store.db, serverEvents.feed);
  const executorOptions = {
    store,
    events,
    log,
    workers: settings.workers,
    maxRunningPerSession: settings.maxRunningPerSession,
    databaseUrl: settings.databaseUrl,
    notices,
    domain: settings.domain,
    timeLimits: domain.timeLimits(settings.runTimeLimitMs),
    externalLimits: externalLimitsOf(settings),
    // The thread of a stopped run sends its external program's SIGKILL: it must outlive that grace.
    cancelGraceMs: Math.max(DEFAULT_CANCEL_GRACE_MS, settings.externalKillGraceMs + KILL_MARGIN_MS),
    threadHeapLimitMb: settings.workerHeapLimitMb,
    poolIdleMs: settings.workerIdleTimeoutMs,
    speedLayersOff: settings.speedLayersOff,
    quietQueue: speedLayerOn('quiet-queue', settings.speedLayersOff),
  };
  // Memory answers status polls and session lookups only where no other process writes the store.
  const singleWriter = isSingleWriter(store.dialect);
  // A single writer (SQLite) owns the queue in its one process. Where many processes share the store
  // (PostgreSQL), graphile-worker (loaded only then) spreads runs over all of them.
  const executor: Executor = singleWriter
    ? new LocalExecutor(executorOptions)
    : new (await import('../executor/distributed/distributed-executor.js')).DistributedExecutor(executorOptions);
  const caches = singleWriter && speedLayerOn('caches', settings.speedLayersOff);
  const statusCache = caches ? new StatusCache() : undefined;
  statusCache?.follow(events);
  // Churn against the published plan is measured as a run completes and as a plan is published (docs/api/cycles.md).
  const churns = new PlanChurns({ store, domain, log });
  const stopChurns = events.on('run:completed', (run) => churns.inBackground('a run', () => churns.completed(run.sessionId, run.scenarioId)));
  const scenarios = new ScenarioService({ store, domain, executor, settings, log, statusCache });
  // Uploads and domain views run on these pools: off the HTTP thread, whatever the `workers` setting.
  const poolSettings = {
    databaseUrl: settings.databaseUrl,
    domain: settings.domain,
    maxFieldBytes: settings.uploadMaxFieldBytes,
    timeLimitMs: settings.uploadTimeLimitMs,
    queueWaitMs: settings.uploadQueueWaitMs,
    maxHeapMb: settings.dataThreadHeapMb,
    idleTimeoutMs: settings.dataThreadIdleMs,
  };
  const uploadPool = createDataTaskPool({ ...poolSettings, ...UPLOAD_POOL });
  const viewPool = createDataTaskPool({ ...poolSettings, ...VIEW_POOL });
  const datasets = new DatasetService(
    store,
    domain,
    {
      datasetStored: (sessionId, key) => {
        serverEvents.committed();
        return scenarios.spawnAutoScenario(sessionId, key);
      },
      datasetDeleted: () => serverEvents.committed(),
    },
    uploadPool,
    settings.datasetVersionsKept,
  );
  const views = new ViewService({ store, domain, runner: viewPool, log });
  const sessions = new SessionService(
    store,
    {
      cancelSession: (sessionId) => scenarios.cancelSession(sessionId),
      seedMainSession: (sessionId) => datasets.seed(sessionId),
      sessionDeleted: (sessionId) => {
        scenarios.sessionDeleted(sessionId);
        serverEvents.committed();
      },
      sessionRenamed: () => serverEvents.committed(),
    },
    { cacheResolution: caches },
  );
  const batch = new ScenarioBatchActions({ store, executor, statusCache });
  const datasetsOfTrees = treeDatasets(store, datasets);
  const branches = new ScenarioBranches({ store, domain, scenarios, datasets: datasetsOfTrees });
  const tree = new ScenarioTree({ store, domain, datasets: datasetsOfTrees });
  const experiments = new ExperimentService({ store, domain, executor, batch, statusCache, maxSize: settings.maxExperimentSize });
  const experimentProgress = new ExperimentProgress(store.experiments, (facts) => serverEvents.recorder.record(facts), log, serverEvents.committed);
  const stopExperimentEvents = experimentProgress.follow(events);
  await experimentProgress.settleLeftovers();
  await sessions.ensureMain();
  // Webhooks that want every event get the types this version added (src/webhooks/webhook-events.ts).
  await widenAllEventWebhooks(store.db);
  const audit = new AuditService(store.audit, settings.auditRetentionMs);
  const auditPruner = new AuditPruner(audit, log);
  // An API-only node (workers 0) runs no program: it has nothing to contain.
  const containmentNote = settings.workers > 0 ? await announceContainment(domain, log) : undefined;
  const readiness = await Readiness.of(store, settings.databaseUrl, containmentNote === undefined ? [] : [containmentNote]);
  // Last: recovery and the worker threads need the migrated store; a failed start leaves nothing open.
  await executor.start().catch(async (err: unknown) => {
    stopRunMetrics();
    stopChurns();
    await serverEvents.close();
    await notices?.close();
    await store.close();
    throw err;
  });
  log.debug({ dialect: store.dialect }, 'store open');
  auditPruner.start();
  const plans = new PlanService({ store, domain, committed: serverEvents.committed, churns });
  const rebase = new ScenarioRebase({ store, domain, scenarios, committed: serverEvents.committed });
  // Every API node ticks; the database makes each due tick run once (src/schedules/ticker.ts).
  const ticker = new Ticker({
    store,
    ticks: new ScheduleTicksRepository(store.db),
    domain,
    sessions,
    datasets,
    scenarios,
    experiments,
    plans,
    replanner: (sessionId) => rebase.replan(sessionId, { run: true }),
    dropDir: settings.dropDir,
    committed: serverEvents.committed,
    log,
  });
  readiness.addChecks(dropFolderChecks(store, sessions, settings.dropDir));
  ticker.start();
  return {
    services: {
      settings,
      store,
      domain,
      sessions,
      datasets,
      scenarios,
      executor,
      eventFeed: serverEvents.feed,
      webhooks: new WebhookService(store.db, webhookPolicy, serverEvents.webhookPresence),
      metrics,
      readiness,
      views,
      batch,
      experiments,
      gates: new GateService({ store, domain, executor, batch, maxSize: settings.maxExperimentSize }),
      branches,
      tree,
      rebase,
      plans,
      reports: new ReportService({ store, domain, views, tree, gateWorkbook: gateReportWorkbookOf }),
      audit,
      explanations: new ExplanationService(store.explanations),
      schedules: new ScheduleService({ store, domain, sessions, plans, dropDir: settings.dropDir, ticker }),
    },
    close: async () => {
      auditPruner.stop();
      // Before the executor: a tick in flight ends its step while the services it calls still run.
      await ticker.stop();
      // Running scenarios are stopped and queued again before the store goes away. That requeue
      // announces no event, so the status cache is dropped with it.
      await executor.close();
      stopRunMetrics();
      stopChurns();
      await datasets.close();
      await viewPool.close();
      statusCache?.clear();
      await stopExperimentEvents();
      // After the executor: its last outcomes are logged (and sent) before the store goes away.
      await serverEvents.close();
      await notices?.close();
      await store.close();
    },
  };
}
