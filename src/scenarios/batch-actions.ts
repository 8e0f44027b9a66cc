import type { Kysely } from 'kysely';
import type { Executor } from '../executor/executor.js';
import type { Database } from '../store/database.js';
import { matchingScenarios, scenariosByIds, type ScenarioFilter } from '../store/scenario-list-query.js';
import { batchWrites, type BatchTarget, type DeletedRow } from '../store/scenario-batch-writes.js';
import type { ScenarioRecord } from '../store/scenarios-repository.js';
import type { Store } from '../store/store.js';
import { changeFor } from '../model/run-state/changes.js';
import { CANCELLED_MESSAGE } from '../model/run-state/run-error.js';
import { isActive } from '../model/run-state/state-machine.js';
import type { StatusCache } from './status-cache.js';
import { refusedByPlan } from './plan-guard.js';
import { errors } from '../error-factories.js';

export const BATCH_ACTIONS = ['run', 'cancel', 'reset', 'delete'] as const;
export type BatchAction = (typeof BATCH_ACTIONS)[number];

/** Which scenarios of the session a batch acts on: listed by id, or every one the list route's filter matches. */
export type BatchSelection = { readonly ids: readonly string[] } | { readonly filter: ScenarioFilter };

/** What a batch did: the scenarios it changed and those it left (their status forbids the action, or unknown ids). */
export interface BatchResult {
  readonly changed: number;
  readonly skipped: number;
  readonly changed_ids: string[];
  readonly skipped_ids: string[];
}

export interface BatchDeps {
  readonly store: Store;
  readonly executor: Executor;
  readonly statusCache?: StatusCache | undefined;
}

/**
 * Run, cancel, reset or delete many scenarios in one transaction. The state machine decides per
 * scenario (the same from-states as the single routes); a scenario whose status forbids the action is
 * skipped, not an error. Afterwards the executor and the event listeners hear of each change as
 * they would of a single one.
 */
export class ScenarioBatchActions {
  constructor(private readonly deps: BatchDeps) {}

  async apply(sessionId: string, action: BatchAction, selection: BatchSelection): Promise<BatchResult> {
    const { store } = this.deps;
    const { asked, changedIds, notify } = await store.db
      .transaction()
      .execute(async (trx) => {
        const targets = 'ids' in selection ? await scenariosByIds(trx, sessionId, selection.ids) : await matchingScenarios(trx, store.adapter, sessionId, selection.filter);
        await this.refusePlan(trx, sessionId, action, targets);
        const asked = 'ids' in selection ? [...new Set(selection.ids)] : targets.map((t) => t.id);
        return { asked, ...(await this.write(trx, sessionId, action, targets)) };
      })
      .catch(refusedByPlan(action));
    // After the commit: a run is handed to the executor only once its row is QUEUED for everyone.
    await notify();
    const changed = new Set(changedIds);
    const skipped = asked.filter((id) => !changed.has(id));
    return { changed: changedIds.length, skipped: skipped.length, changed_ids: changedIds, skipped_ids: skipped };
  }

  /**
   * The published plan's scenario among the targets of a run, reset or delete refuses the whole batch
   * (nothing is changed): skipping it would let a filter's "delete everything" quietly keep it, or a
   * list of ids drop the decision without a word. A cancel never changes a COMPLETE scenario: it skips it.
   */
  private async refusePlan(trx: Kysely<Database>, sessionId: string, action: BatchAction, targets: readonly BatchTarget[]): Promise<void> {
    if (action === 'cancel') return;
    const plan = await this.deps.store.plans.current(sessionId, trx);
    if (plan && targets.some((t) => t.id === plan.scenario_id)) throw errors.planScenarioProtected(action, plan.scenario_id);
  }

  /** The writes of one action: the ids it changed, and what to tell the executor and listeners after the commit. */
  private async write(trx: Kysely<Database>, sessionId: string, action: BatchAction, targets: BatchTarget[]): Promise<Written> {
    const at = new Date().toISOString();
    switch (action) {
      case 'run': {
        const rows = await batchWrites.queue(trx, sessionId, targets, changeFor('run'), at);
        return { changedIds: rows.map((r) => r.id), notify: async () => this.queued(rows) };
      }
      case 'reset': {
        const rows = await batchWrites.reset(trx, sessionId, targets, changeFor('reset'));
        return { changedIds: rows.map((r) => r.id), notify: async () => this.wasReset(rows) };
      }
      case 'cancel': {
        const rows = await batchWrites.cancel(trx, sessionId, targets, changeFor('cancel'), at);
        return { changedIds: rows.map((r) => r.id), notify: () => this.cancelled(rows) };
      }
      case 'delete': {
        const rows = await batchWrites.delete(trx, sessionId, targets);
        return { changedIds: rows.map((r) => r.id), notify: () => this.deleted(sessionId, rows) };
      }
    }
  }

  private queued(rows: readonly ScenarioRecord[]): void {
    for (const row of rows) {
      this.deps.statusCache?.written(row);
      this.deps.executor.queued({ scenarioId: row.id, sessionId: row.sessionId });
    }
  }

  private wasReset(rows: readonly ScenarioRecord[]): void {
    for (const row of rows) {
      this.deps.statusCache?.written(row);
      this.deps.executor.events.emit('run:reset', { scenarioId: row.id, sessionId: row.sessionId });
    }
  }

  private async cancelled(rows: readonly ScenarioRecord[]): Promise<void> {
    const { executor, statusCache } = this.deps;
    for (const row of rows) statusCache?.written(row);
    await Promise.all(rows.map((row) => executor.abort({ scenarioId: row.id, sessionId: row.sessionId })));
    for (const row of rows) {
      executor.events.emit('run:failed', { scenarioId: row.id, sessionId: row.sessionId, message: row.error ?? CANCELLED_MESSAGE, code: 'CANCELLED' });
    }
  }

  private async deleted(sessionId: string, rows: readonly DeletedRow[]): Promise<void> {
    const { executor, statusCache } = this.deps;
    const active = rows.filter((row) => isActive(row.status));
    await Promise.all(active.map((row) => executor.abort({ scenarioId: row.id, sessionId })));
    for (const row of rows) {
      statusCache?.deleted(row.id);
      const ref = { scenarioId: row.id, sessionId };
      if (isActive(row.status)) executor.events.emit('run:cancelled', ref);
      executor.events.emit('run:deleted', { ...ref, tag: row.tag });
    }
  }
}

interface Written {
  readonly changedIds: string[];
  readonly notify: () => Promise<void>;
}
