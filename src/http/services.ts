import type { Settings } from '../config/settings.js';
import type { DatasetService } from '../datasets/service.js';
import type { DomainRegistry } from '../domain/registry.js';
import type { EventFeed } from '../events/event-feed.js';
import type { ExperimentService } from '../experiments/service.js';
import type { Executor } from '../executor/executor.js';
import type { ScenarioBatchActions } from '../scenarios/batch-actions.js';
import type { ScenarioService } from '../scenarios/service.js';
import type { SessionService } from '../sessions/service.js';
import type { Store } from '../store/store.js';
import type { WebhookService } from '../webhooks/webhook-service.js';

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
  /** Run, cancel, reset or delete many scenarios in one transaction. */
  readonly batch: ScenarioBatchActions;
  readonly experiments: ExperimentService;
}

export interface RouteOptions {
  readonly services: Services;
}
