import type { Kysely, Selectable } from 'kysely';
import type { Actor } from '../model/actor.js';
import type { Database, PlansTable } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { recordColumns, type ScenarioRecord, type ScenarioRef } from './scenarios-repository.js';

export type PlanRow = Selectable<PlansTable>;

export interface PublishInput {
  readonly planId: string;
  readonly scenario: ScenarioRef;
  readonly note: string;
  readonly by: Actor;
  /** The time of the publication, asked once the session's plan is held (so publications are timed in the order they apply). */
  readonly now: () => string;
  /** The KPI entries of the scenario as locked (JSON object text), computed from its row inside the transaction. */
  readonly kpisOf: (record: ScenarioRecord) => string;
}

/** What a publication did: the new plan (and the one it superseded), or why it did nothing. */
export type PublishOutcome =
  | { readonly published: PlanRow; readonly superseded: PlanRow | undefined }
  | { readonly refused: 'missing' }
  | { readonly refused: 'not-complete'; readonly status: ScenarioRecord['status'] }
  | { readonly refused: 'already-current'; readonly current: PlanRow };

export interface EndInput {
  readonly sessionId: string;
  readonly note: string;
  readonly by: Actor;
  /** The time of the withdrawal, asked once the session's plan is held. */
  readonly now: () => string;
}

/**
 * The published plan of each session and its history. A publication, a supersession and a withdrawal
 * are each one transaction with their event (`plan.published`, `plan.withdrawn`) written into the
 * outbox, so the log holds the event exactly when the decision was committed.
 */
export class PlansRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Makes a COMPLETE scenario the session's plan, superseding the current one. The scenario's row is
   * locked first (PostgreSQL `for update`): a reset, edit or delete of it either committed before (then
   * it is not COMPLETE, or gone) or waits and meets the plan triggers (migration 0016). Before that,
   * the session's plan key is held (`holdSessionPlan`), so publications of one session apply one after
   * the other, each superseding the plan the previous one published.
   */
  async publish(input: PublishInput): Promise<PublishOutcome> {
    return this.db.transaction().execute((trx) => this.publishIn(trx, input));
  }

  private async publishIn(trx: Kysely<Database>, input: PublishInput): Promise<PublishOutcome> {
    const adapter = dialectAdapterOf(trx);
    const { sessionId, id } = input.scenario;
    await holdSessionPlan(trx, sessionId);
    const scenarioQuery = trx.selectFrom('scenarios').select(recordColumns).where('session_id', '=', sessionId).where('id', '=', id);
    const record = await adapter.lockingRows(scenarioQuery).executeTakeFirst();
    if (!record) return { refused: 'missing' };
    if (record.status !== 'COMPLETE') return { refused: 'not-complete', status: record.status };
    const current = await adapter.lockingRows(currentQuery(trx, sessionId)).executeTakeFirst();
    if (current?.scenario_id === id) return { refused: 'already-current', current };
    // Never before the plan it supersedes, whatever the clock of the node that published that one.
    const at = laterOf(input.now(), current?.published_at);
    const by = { published_by_id: input.by.id, published_by_name: input.by.name };
    let superseded: PlanRow | undefined;
    if (current) {
      superseded = await trx
        .updateTable('plans')
        .set({ ended_at: at, ended_how: 'superseded', ended_note: null, ended_by_id: input.by.id, ended_by_name: input.by.name })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const published = await trx
      .insertInto('plans')
      .values({
        id: input.planId,
        session_id: sessionId,
        scenario_id: id,
        tag: record.tag,
        dataset_key: record.datasetKey,
        algo_name: record.algoName,
        kpis: input.kpisOf(record),
        note: input.note,
        ...by,
        published_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await logEvent(trx, sessionId, 'plan.published', { ...eventFields(published, input.by), note: published.note, superseded_plan_id: superseded?.id ?? null });
    return { published, superseded };
  }

  /** Withdraws the session's current plan; answers it as ended, or undefined when there was none. */
  async withdraw(input: EndInput): Promise<PlanRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await holdSessionPlan(trx, input.sessionId);
      const current = await this.current(input.sessionId, trx);
      if (!current) return undefined;
      const ended = await trx
        .updateTable('plans')
        .set({ ended_at: laterOf(input.now(), current.published_at), ended_how: 'withdrawn', ended_note: input.note, ended_by_id: input.by.id, ended_by_name: input.by.name })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirst();
      if (ended) await logEvent(trx, input.sessionId, 'plan.withdrawn', { ...eventFields(ended, input.by), note: input.note });
      return ended;
    });
  }

  /** The session's current plan, if any. */
  current(sessionId: string, db: Kysely<Database> = this.db): Promise<PlanRow | undefined> {
    return currentQuery(db, sessionId).executeTakeFirst();
  }

  /** The session's earlier plans (superseded or withdrawn), the latest first. */
  history(sessionId: string): Promise<PlanRow[]> {
    return this.db.selectFrom('plans').selectAll().where('session_id', '=', sessionId).where('ended_at', 'is not', null).orderBy('seq', 'desc').execute();
  }
}

/**
 * Holds the session's plan until the transaction ends. Row locks cannot do it: a publication that
 * waited on the current plan's row finds it ended once the other commits, and the plan that
 * publication inserted was not there when the statement began, so it would insert a second current
 * plan (refused by the `plans_current` index).
 */
function holdSessionPlan(trx: Kysely<Database>, sessionId: string): Promise<void> {
  return dialectAdapterOf(trx).holdKey(trx, `scenarist.plan:${sessionId}`);
}

/** ISO-8601 times compare as text. */
function laterOf(time: string, floor: string | undefined): string {
  return floor !== undefined && floor > time ? floor : time;
}

function currentQuery(db: Kysely<Database>, sessionId: string) {
  return db.selectFrom('plans').selectAll().where('session_id', '=', sessionId).where('ended_at', 'is', null);
}

/** What both plan events carry: which plan and scenario, its KPIs as published, and who acted. */
function eventFields(plan: PlanRow, by: Actor) {
  return {
    plan_id: plan.id,
    scenario_id: plan.scenario_id,
    tag: plan.tag,
    dataset_key: plan.dataset_key,
    kpis: JSON.parse(plan.kpis) as unknown,
    by: { id: by.id, name: by.name },
  };
}

async function logEvent(trx: Kysely<Database>, sessionId: string, type: 'plan.published' | 'plan.withdrawn', details: Record<string, unknown>): Promise<void> {
  await trx.insertInto('event_outbox').values({ session_id: sessionId, type, details: JSON.stringify(details) }).execute();
}
