import { randomUUID } from 'node:crypto';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { Actor } from '../model/actor.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import { scenarioView } from '../scenarios/view.js';
import type { ScenarioRecord, ScenarioRef } from '../store/scenarios-repository.js';
import type { Store } from '../store/store.js';
import { planView, type PlanView, type SessionPlanView } from './plan-view.js';

export interface PlanServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  /** Something was committed that logged an event (the plan events): wake the feed and the webhooks. */
  readonly committed: () => void;
}

/**
 * The session's published plan: publish a COMPLETE scenario (superseding the current plan), withdraw
 * it, read it with its history. Each write is one transaction with its event (see `PlansRepository`);
 * what the plan protects is refused by the store itself (migration 0016).
 */
export class PlanService {
  constructor(private readonly deps: PlanServiceDeps) {}

  async get(sessionId: string): Promise<SessionPlanView> {
    const [current, history] = await Promise.all([this.deps.store.plans.current(sessionId), this.deps.store.plans.history(sessionId)]);
    return { current: current ? planView(current) : null, history: history.map(planView) };
  }

  /** The id of the session's published plan's scenario; undefined when none is published. */
  async currentScenarioId(sessionId: string): Promise<string | undefined> {
    return (await this.deps.store.plans.current(sessionId))?.scenario_id;
  }

  /** Publishes the scenario as the session's plan; answers the new plan. */
  async publish(ref: ScenarioRef, note: string, by: Actor): Promise<PlanView> {
    const planId = randomUUID();
    // Named by the request's audit entry, as every write names the id it creates.
    noteAuditTarget('plan', planId);
    const outcome = await this.deps.store.plans.publish({
      planId,
      scenario: ref,
      note,
      by,
      now: () => new Date().toISOString(),
      kpisOf: (record) => this.kpisJson(record),
    });
    if ('refused' in outcome) {
      switch (outcome.refused) {
        case 'missing':
          throw errors.scenarioNotFound(ref.id);
        case 'not-complete':
          throw errors.planScenarioNotComplete(ref.id, outcome.status);
        case 'already-current':
          throw errors.planAlreadyPublished(ref.id);
      }
    }
    this.deps.committed();
    return planView(outcome.published);
  }

  /** Withdraws the current plan with a note; answers it as ended. 409 when there is none. */
  async withdraw(sessionId: string, note: string, by: Actor): Promise<PlanView> {
    const ended = await this.deps.store.plans.withdraw({ sessionId, note, by, now: () => new Date().toISOString() });
    if (!ended) throw errors.planNotPublished();
    this.deps.committed();
    return planView(ended);
  }

  /** The scenario's KPI entries exactly as its GET answers them (values of a COMPLETE scenario). */
  private kpisJson(record: ScenarioRecord): string {
    return JSON.stringify(scenarioView(record, this.deps.domain).kpis);
  }
}
