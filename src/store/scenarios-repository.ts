import { sql, type Kysely } from 'kysely';
import type { Database, StoredStatus } from './database.js';
import { prepared, preparedByShape } from './prepared-query.js';
import { copyKpiValues } from './scenario-kpis.js';

/** A scenario as stored; JSON columns stay text so callers parse only what they serve. */
export interface ScenarioRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly tag: string;
  readonly datasetKey: string;
  readonly algoName: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
  readonly status: StoredStatus;
  readonly progress: number;
  readonly resultJson: string | null;
  readonly kpiValuesJson: string | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

export type NewScenario = Pick<
  ScenarioRecord,
  'id' | 'sessionId' | 'tag' | 'datasetKey' | 'algoName' | 'algoParamsJson' | 'dataParamsJson' | 'createdAt'
>;

/** The few columns the status route needs: polling never reads a result. */
export interface ScenarioStatusRecord {
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
  readonly progress: number;
}

/** A state change decided by the scenario state machine: the allowed from-states and the target. */
export interface StatusChange {
  readonly from: readonly StoredStatus[];
  readonly to: StoredStatus;
}

export interface ScenarioRef {
  readonly sessionId: string;
  readonly id: string;
}

const recordColumns = [
  'id',
  'session_id as sessionId',
  'tag',
  'dataset_key as datasetKey',
  'algo_name as algoName',
  'algo_params as algoParamsJson',
  'data_params as dataParamsJson',
  'status',
  'progress',
  'result as resultJson',
  'kpi_values as kpiValuesJson',
  'error',
  'created_at as createdAt',
  'started_at as startedAt',
  'finished_at as finishedAt',
] as const;

/** Values that clear everything a run produced, for reset and for copies of unfinished scenarios. */
export const CLEARED_RUN = {
  progress: 0,
  result: null,
  kpi_values: null,
  error: null,
  attempts: 0,
  queue_order: null,
  queued_at: null,
  started_at: null,
  finished_at: null,
  lease_owner: null,
  lease_expires_at: null,
} as const;

// The statements of the hot paths (create, run, status), compiled once (see prepared-query.ts).

const statusQuery = prepared((db, ref: ScenarioRef) =>
  db.selectFrom('scenarios').select(['id', 'tag', 'status', 'progress']).where('session_id', '=', ref.sessionId).where('id', '=', ref.id),
);

const statusBySessionRefQuery = prepared((db, v: { sessionRef: string; id: string }) =>
  db
    .selectFrom('scenarios')
    .innerJoin('sessions', 'sessions.id', 'scenarios.session_id')
    .select(['scenarios.id', 'scenarios.tag', 'scenarios.status', 'scenarios.progress', 'scenarios.session_id as sessionId'])
    .where('scenarios.id', '=', v.id)
    .where((eb) => eb.or([eb('sessions.id', '=', v.sessionRef), eb('sessions.display_name', '=', v.sessionRef)])),
);

const insertQuery = prepared((db, scenario: NewScenario) =>
  db.insertInto('scenarios').values({
    id: scenario.id,
    session_id: scenario.sessionId,
    tag: scenario.tag,
    dataset_key: scenario.datasetKey,
    algo_name: scenario.algoName,
    algo_params: scenario.algoParamsJson,
    data_params: scenario.dataParamsJson,
    status: 'CREATED',
    ...CLEARED_RUN,
    created_at: scenario.createdAt,
  }),
);

/** One compiled statement per state change (its from-states are part of the SQL). */
const queueQuery = preparedByShape(
  (change: StatusChange) => `${change.from.join(',')}>${change.to}`,
  (db, change, v: ScenarioRef & { now: string }) =>
    db
      .updateTable('scenarios')
      .set({
        status: change.to,
        ...CLEARED_RUN,
        queue_order: sql<number>`(select coalesce(max(q.queue_order), 0) + 1 from scenarios q where q.status in ('QUEUED', 'PROCESSING'))`,
        queued_at: v.now,
      })
      .where('session_id', '=', v.sessionId)
      .where('id', '=', v.id)
      .where('status', 'in', change.from)
      .returning(recordColumns),
);

/** Scenario rows: client-facing reads and the client-driven state changes (run, reset, delete, copy). */
export class ScenariosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The session's scenarios in creation order. */
  list(sessionId: string): Promise<ScenarioRecord[]> {
    return this.db.selectFrom('scenarios').select(recordColumns).where('session_id', '=', sessionId).orderBy('seq').execute();
  }

  /** The session's scenarios among `ids`, in no particular order (unknown ids are simply absent). */
  getMany(sessionId: string, ids: readonly string[]): Promise<ScenarioRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('scenarios').select(recordColumns).where('session_id', '=', sessionId).where('id', 'in', ids).execute();
  }

  get(ref: ScenarioRef): Promise<ScenarioRecord | undefined> {
    return this.db
      .selectFrom('scenarios')
      .select(recordColumns)
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .executeTakeFirst();
  }

  async status(ref: ScenarioRef): Promise<ScenarioStatusRecord | undefined> {
    return (await statusQuery(this.db, { sessionId: ref.sessionId, id: ref.id })).rows[0];
  }

  /**
   * The status of a scenario addressed by a session id *or display name* in one query: the polling
   * hot path, which would otherwise resolve the session first. Undefined when either is unknown.
   */
  async statusBySessionRef(sessionRef: string, id: string): Promise<(ScenarioStatusRecord & { sessionId: string }) | undefined> {
    return (await statusBySessionRefQuery(this.db, { sessionRef, id })).rows[0];
  }

  /** The session's PROCESSING scenario, if any (the executor keeps it to at most one). */
  processing(sessionId: string): Promise<ScenarioRecord | undefined> {
    return this.db
      .selectFrom('scenarios')
      .select(recordColumns)
      .where('session_id', '=', sessionId)
      .where('status', '=', 'PROCESSING')
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Stores a CREATED scenario and answers its row as stored, built from the inserted values (no
   * read back); throws a unique violation when the tag is taken in the session.
   */
  async insert(scenario: NewScenario): Promise<ScenarioRecord> {
    await insertQuery(this.db, scenario);
    const { progress, result, kpi_values, error, started_at, finished_at } = CLEARED_RUN;
    return {
      id: scenario.id,
      sessionId: scenario.sessionId,
      tag: scenario.tag,
      datasetKey: scenario.datasetKey,
      algoName: scenario.algoName,
      algoParamsJson: scenario.algoParamsJson,
      dataParamsJson: scenario.dataParamsJson,
      createdAt: scenario.createdAt,
      status: 'CREATED',
      progress,
      resultJson: result,
      kpiValuesJson: kpi_values,
      error,
      startedAt: started_at,
      finishedAt: finished_at,
    };
  }

  /**
   * Queues the scenario behind every queued or running one (FIFO by `queue_order`) when its status
   * is one of `change.from`. Answers the row as this change left it (QUEUED, even if a worker claims
   * it a moment later), or undefined when another request changed it first or it does not exist.
   */
  async queue(ref: ScenarioRef, change: StatusChange, now: string): Promise<ScenarioRecord | undefined> {
    return (await queueQuery(this.db, change, { sessionId: ref.sessionId, id: ref.id, now })).rows[0];
  }

  /**
   * Clears the run's result, KPIs, error and progress when the status is one of `change.from`.
   * Answers the row as this change left it, or undefined when the change did not apply.
   */
  reset(ref: ScenarioRef, change: StatusChange): Promise<ScenarioRecord | undefined> {
    return this.db
      .updateTable('scenarios')
      .set({ status: change.to, ...CLEARED_RUN })
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .where('status', 'in', change.from)
      .returning(recordColumns)
      .executeTakeFirst();
  }

  /** Deletes the scenario; answers the status it had, or undefined when there was none. */
  async delete(ref: ScenarioRef): Promise<StoredStatus | undefined> {
    const row = await this.db
      .deleteFrom('scenarios')
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .returning('status')
      .executeTakeFirst();
    return row?.status;
  }

  /** Removes the session's QUEUED and PROCESSING scenarios (cancelled with their session); answers them. */
  async deleteActive(sessionId: string): Promise<ScenarioRef[]> {
    const rows = await this.db
      .deleteFrom('scenarios')
      .where('session_id', '=', sessionId)
      .where('status', 'in', ['QUEUED', 'PROCESSING'])
      .returning(['id', 'session_id as sessionId'])
      .execute();
    return rows;
  }

  /**
   * Copies every scenario of one session into another under new ids, in creation order, inside the
   * caller's transaction. A copy keeps its run's result, KPIs and error when `keepsRun(status)`;
   * any other copy starts over as CREATED.
   */
  async copySession(
    fromSessionId: string,
    toSessionId: string,
    newId: () => string,
    keepsRun: (status: StoredStatus) => boolean,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    const rows = await db.selectFrom('scenarios').selectAll().where('session_id', '=', fromSessionId).orderBy('seq').execute();
    if (rows.length === 0) return;
    const copies = rows.map(({ seq: _seq, ...row }) => {
      const base = { ...row, id: newId(), session_id: toSessionId, queue_order: null, lease_owner: null, lease_expires_at: null, attempts: 0 };
      return keepsRun(row.status) ? base : { ...base, status: 'CREATED' as const, ...CLEARED_RUN };
    });
    // Batches keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < copies.length; i += 200) await db.insertInto('scenarios').values(copies.slice(i, i + 200)).execute();
    await copyKpiValues(db, fromSessionId, toSessionId);
  }
}
