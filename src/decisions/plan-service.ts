import { randomUUID } from 'node:crypto';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { Actor } from '../model/actor.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import { scenarioView } from '../scenarios/view.js';
import type { ScenarioRecord, ScenarioRef } from '../store/scenarios-repository.js';
import type { PlanRow } from '../store/plans-repository.js';
import type { Store } from '../store/store.js';
import { planView, type PlanView, type SessionPlanView } from './plan-view.js';
import type { PlanChurns } from '../scenarios/results/plan-churn.js';

export interface PlanServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  /** Something was committed that logged an event (the plan events): wake the feed and the webhooks. */
  readonly committed: () => void;
  /** Measures every scenario's churn against a newly published plan, off the request (absent: readers measure it). */
  readonly churns?: PlanChurns;
}

/**
 * The session's published plan: publish a COMPLETE scenario (superseding the current plan), withdraw
 * it, read it with its history. Each write is one transaction with its event (see `PlansRepository`);
 * what the plan protects is refused by the store itself (migration 0016).
 */
export class PlanService {
  constructor(private readonly deps: PlanServiceDeps) {}

  async get(sessionId: string): Promise<SessionPlanView> {
    const { plans, datasetVersions } = this.deps.store;
    const [current, history, versions] = await Promise.all([plans.current(sessionId), plans.history(sessionId), datasetVersions.currentVersions(sessionId)]);
    return { current: current ? planView(current, versions) : null, history: history.map((row) => planView(row, versions)) };
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
    const churns = this.deps.churns;
    churns?.inBackground('a publication', () => churns.published(ref.sessionId));
    return this.viewOf(ref.sessionId, outcome.published);
  }

  /** Withdraws the current plan with a note; answers it as ended. 409 when there is none. */
  async withdraw(sessionId: string, note: string, by: Actor): Promise<PlanView> {
    const ended = await this.deps.store.plans.withdraw({ sessionId, note, by, now: () => new Date().toISOString() });
    if (!ended) throw errors.planNotPublished();
    this.deps.committed();
    return this.viewOf(sessionId, ended);
  }

  /**
   * A plan just written, read back by id: its `dataset_version` is set by trigger (migration 0027),
   * which SQLite's RETURNING does not show. With the stale mark from the session's current versions.
   */
  private async viewOf(sessionId: string, written: PlanRow): Promise<PlanView> {
    const { db, datasetVersions } = this.deps.store;
    const [row, versions] = await Promise.all([db.selectFrom('plans').selectAll().where('id', '=', written.id).executeTakeFirst(), datasetVersions.currentVersions(sessionId)]);
    return planView(row ?? written, versions);
  }

  /** The scenario's KPI entries exactly as its GET answers them (values of a COMPLETE scenario). */
  private kpisJson(record: ScenarioRecord): string {
    return JSON.stringify(scenarioView(record, this.deps.domain).kpis);
  }
}
