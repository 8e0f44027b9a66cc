import type { Settings } from '../config/settings.js';
import type { DatasetService } from '../datasets/service.js';
import type { PlanService } from '../decisions/plan-service.js';
import type { ReportService } from '../decisions/report-service.js';
import type { DomainRegistry } from '../domain/registry.js';
import type { EventFeed } from '../events/event-feed.js';
import type { ExperimentService } from '../experiments/service.js';
import type { GateService } from '../gates/service.js';
import type { Executor } from '../executor/executor.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Readiness } from '../store/readiness.js';
import type { ScenarioBatchActions } from '../scenarios/batch-actions.js';
import type { ScenarioService } from '../scenarios/service.js';
import type { ScenarioBranches } from '../scenarios/tree/branch.js';
import type { ScenarioTree } from '../scenarios/tree/scenario-tree.js';
import type { ScenarioRebase } from '../datasets/rebase/rebase-service.js';
import type { SessionService } from '../sessions/service.js';
import type { Store } from '../store/store.js';
import type { ViewService } from '../views/view-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { AuditService } from '../audit/audit-service.js';
import type { ScheduleService } from '../schedules/service.js';
import type { ExplanationService } from '../scenarios/explanations/explanation-service.js';

/** Everything route plugins need, built by the app factory's caller and injected (no singletons). */
export interface Services {
  readonly settings: Settings;
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly sessions: SessionService;
  readonly datasets: DatasetService;
  readonly scenarios: ScenarioService;
  readonly executor: Executor;
  /** Live events for SSE subscribers (read from the event log). */
  readonly eventFeed: EventFeed;
  readonly webhooks: WebhookService;
  /** The domain's views of datasets, results and comparisons. */
  readonly views: ViewService;
  /** This process's Prometheus registry (`GET /metrics`). */
  readonly metrics: ServiceMetrics;
  /** What `GET /health/ready` checks; told when a graceful shutdown starts. */
  readonly readiness: Readiness;
  /** Run, cancel, reset or delete many scenarios in one transaction. */
  readonly batch: ScenarioBatchActions;
  readonly experiments: ExperimentService;
  /** Acceptance gates: paired runs of a baseline and a candidate, and their verdict. */
  readonly gates: GateService;
  /** `POST .../scenarios/{id}/branch`. */
  readonly branches: ScenarioBranches;
  /** Lineage of a scenario, and compare's `inputs`. */
  readonly tree: ScenarioTree;
  /** `POST .../scenarios/{id}/rebase` and `POST .../plan/replan` (docs/api/cycles.md). */
  readonly rebase: ScenarioRebase;
  /** The session's published plan and its history. */
  readonly plans: PlanService;
  /** Frozen comparisons. */
  readonly reports: ReportService;
  /** The audit trail: reading, exporting, pruning, verifying. */
  readonly audit: AuditService;
  /** Schedules of a session and their ticks. */
  readonly schedules: ScheduleService;
  /** Explanations of runs: the explanation route, compare's waterfalls, reports. */
  readonly explanations: ExplanationService;
}

export interface RouteOptions {
  readonly services: Services;
}
