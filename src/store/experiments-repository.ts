import { sql, type Kysely } from 'kysely';
import type { Database, StoredStatus } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { isUniqueViolation } from './errors.js';
import { NO_RUN } from './run-columns.js';

/** An experiment as stored; `spec` stays JSON text (the service parses it). */
export interface ExperimentRecord {
  readonly seq: number;
  readonly id: string;
  readonly sessionId: string;
  readonly name: string;
  readonly algoName: string;
  readonly specJson: string;
  readonly size: number;
  readonly createdAt: string;
  readonly completedAt: string | null;
}

/** A scenario of a new experiment, in creation order. */
export interface NewExperimentScenario {
  readonly id: string;
  readonly tag: string;
  readonly datasetKey: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
  readonly combo: number;
  readonly axisValuesJson: string;
}

export interface NewExperiment {
  readonly id: string;
  readonly sessionId: string;
  readonly name: string;
  readonly algoName: string;
  readonly specJson: string;
  readonly createdAt: string;
  readonly scenarios: readonly NewExperimentScenario[];
  /** Every dataset key the scenarios use: all must exist for anything to be stored. */
  readonly datasetKeys: readonly string[];
  /** Queue every scenario at once, in creation order. */
  readonly queue: boolean;
}

/** Why a creation stored nothing. */
export type CreateRefusal = { readonly refused: 'name-taken' | 'tag-taken' } | { readonly refused: 'missing-datasets'; readonly keys: string[] };

/** One scenario of an experiment as its results list it. */
export interface ExperimentResultRow {
  readonly seq: number;
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
  readonly combo: number;
  readonly axisValuesJson: string;
  readonly kpiValuesJson: string | null;
  /** The seed of its latest run's `ctx.random`; null before it ran. */
  readonly seed: number | null;
}

const experimentColumns = [
  'seq',
  'id',
  'session_id as sessionId',
  'name',
  'algo_name as algoName',
  'spec as specJson',
  'size',
  'created_at as createdAt',
  'completed_at as completedAt',
] as const;

/** Rows a multi-row INSERT takes at once: 12 values each, well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 500;

class Refused extends Error {
  constructor(readonly refusal: CreateRefusal) {
    super(refusal.refused);
  }
}

/** How many scenarios of an experiment are in one status, and a stamp of which ones (see `counts`). */
export interface StatusCountRow {
  readonly status: StoredStatus;
  readonly count: number;
  readonly progress: number;
  readonly stamp: string;
}

/** An experiment's counts by status and its reopen stamp, from one snapshot. */
export interface ExperimentProgressRead {
  readonly counts: readonly StatusCountRow[];
  /** Changes whenever a scenario of the experiment is queued (migration 0013). */
  readonly reopenStamp: number;
}

function countRow(r: { status: StoredStatus; count: number; progress: number; seqSum: number; lastFinished: string | null }): StatusCountRow {
  return { status: r.status, count: Number(r.count), progress: Number(r.progress), stamp: `${r.count}:${r.seqSum}:${r.lastFinished ?? '-'}` };
}

/** Experiment rows, and their scenarios as groups (creation, counts, results). */
export class ExperimentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores the experiment and all its scenarios in one transaction, queued in creation order when
   * `queue`; on any refusal nothing is stored. On PostgreSQL the datasets are locked (`for share`)
   * until the commit, so a concurrent dataset delete either sees the scenarios or happens first.
   */
  async create(experiment: NewExperiment): Promise<CreateRefusal | undefined> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.insertExperiment(trx, experiment);
        let datasets = trx.selectFrom('datasets').select('key').where('session_id', '=', experiment.sessionId).where('key', 'in', experiment.datasetKeys);
        datasets = dialectAdapterOf(trx).sharingRows(datasets);
        const found = new Set((await datasets.execute()).map((r) => r.key));
        const missing = experiment.datasetKeys.filter((key) => !found.has(key));
        if (missing.length > 0) throw new Refused({ refused: 'missing-datasets', keys: missing });
        const base = experiment.queue ? await queueBase(trx) : 0;
        const queuedAt = experiment.queue ? experiment.createdAt : null;
        for (let i = 0; i < experiment.scenarios.length; i += INSERT_CHUNK) {
          const rows = experiment.scenarios.slice(i, i + INSERT_CHUNK).map((s, k) => ({
            ...NO_RUN,
            id: s.id,
            session_id: experiment.sessionId,
            tag: s.tag,
            dataset_key: s.datasetKey,
            algo_name: experiment.algoName,
            algo_params: s.algoParamsJson,
            data_params: s.dataParamsJson,
            status: experiment.queue ? ('QUEUED' as const) : ('CREATED' as const),
            queue_order: experiment.queue ? base + i + k + 1 : null,
            queued_at: queuedAt,
            created_at: experiment.createdAt,
            experiment_id: experiment.id,
            experiment_combo: s.combo,
            axis_values: s.axisValuesJson,
          }));
          await trx.insertInto('scenarios').values(rows).execute().catch(uniqueAs('tag-taken'));
        }
      });
      return undefined;
    } catch (err) {
      if (err instanceof Refused) return err.refusal;
      throw err;
    }
  }

  private async insertExperiment(trx: Kysely<Database>, e: NewExperiment): Promise<void> {
    await trx
      .insertInto('experiments')
      .values({ id: e.id, session_id: e.sessionId, name: e.name, algo_name: e.algoName, spec: e.specJson, size: e.scenarios.length, created_at: e.createdAt })
      .execute()
      .catch(uniqueAs('name-taken'));
  }

  get(sessionId: string, id: string): Promise<ExperimentRecord | undefined> {
    return this.db.selectFrom('experiments').select(experimentColumns).where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
  }

  /** A page of the session's experiments in creation order, after `afterSeq`; up to `limit + 1` rows. */
  page(sessionId: string, limit: number, afterSeq: number | undefined): Promise<ExperimentRecord[]> {
    let q = this.db.selectFrom('experiments').select(experimentColumns).where('session_id', '=', sessionId);
    if (afterSeq !== undefined) q = q.where('seq', '>', afterSeq);
    return q.orderBy('seq').limit(limit + 1).execute();
  }

  /**
   * Per status: how many, their progress summed (COMPLETE and FAILED count 1), and a stamp of which
   * scenarios they are and when the last finished (the summary of the COMPLETE ones is cached by it:
   * any change of that set, or a rerun, changes the stamp).
   */
  async counts(sessionId: string, id: string): Promise<StatusCountRow[]> {
    return (await this.countsQuery(sessionId, id).execute()).map(countRow);
  }

  /**
   * The counts and the reopen stamp of the experiment, read by one statement (so from one snapshot):
   * what a completion is judged by and then claimed for (`markCompleted`).
   */
  async progressRead(sessionId: string, id: string): Promise<ExperimentProgressRead> {
    const rows = await this.countsQuery(sessionId, id)
      .select((eb) => eb.selectFrom('experiments').select('reopen_stamp').where('id', '=', id).as('reopenStamp'))
      .execute();
    return { counts: rows.map(countRow), reopenStamp: Number(rows[0]?.reopenStamp ?? 0) };
  }

  private countsQuery(sessionId: string, id: string) {
    return this.db
      .selectFrom('scenarios')
      .select([
        'status',
        sql<number>`count(*)`.as('count'),
        sql<number>`sum(case when status in ('COMPLETE', 'FAILED') then 1 else progress end)`.as('progress'),
        sql<number>`sum(seq)`.as('seqSum'),
        sql<string | null>`max(finished_at)`.as('lastFinished'),
      ])
      .where('session_id', '=', sessionId)
      .where('experiment_id', '=', id)
      .groupBy('status');
  }

  /** Up to `limit` result rows after `afterSeq`, in creation order. */
  resultRows(sessionId: string, id: string, afterSeq: number, limit: number): Promise<ExperimentResultRow[]> {
    return this.db
      .selectFrom('scenarios')
      .select(['seq', 'id', 'tag', 'status', 'experiment_combo as combo', 'axis_values as axisValuesJson', 'kpi_values as kpiValuesJson', 'seed'])
      .where('session_id', '=', sessionId)
      .where('experiment_id', '=', id)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute() as Promise<ExperimentResultRow[]>;
  }

  /** The experiments that scenarios among `ids` belong to. */
  async experimentsOf(ids: readonly string[]): Promise<{ id: string; sessionId: string }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('scenarios')
      .select(['experiment_id', 'session_id'])
      .distinct()
      .where('id', 'in', ids)
      .where('experiment_id', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.experiment_id!, sessionId: r.session_id }));
  }

  /**
   * Marks the experiment completed and logs `events` (its last progress and its completion: type and
   * own fields, in order) in the same transaction; true only for the one caller that did (several
   * processes may try), and only while no scenario of it was queued since `seen` was read (a queuing
   * clears `completed_at` and changes `reopen_stamp`, see migration 0013).
   */
  async markCompleted(
    id: string,
    sessionId: string,
    at: string,
    seen: ExperimentProgressRead,
    events: readonly { type: string; details: Readonly<Record<string, unknown>> }[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('experiments')
        .set({ completed_at: at })
        .where('id', '=', id)
        .where('completed_at', 'is', null)
        .where('reopen_stamp', '=', seen.reopenStamp)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      const rows = events.map((e) => ({ session_id: sessionId, type: e.type, details: JSON.stringify(e.details) }));
      if (rows.length > 0) await trx.insertInto('event_outbox').values(rows).execute();
      return true;
    });
  }

  /**
   * Experiments not marked completed although none of their scenarios is queued or running any
   * more: their last run ended while no process was there to settle them (a crash).
   */
  async unsettled(): Promise<{ id: string; sessionId: string }[]> {
    const rows = await this.db
      .selectFrom('experiments as e')
      .select(['e.id', 'e.session_id'])
      .where('e.completed_at', 'is', null)
      .where((eb) =>
        eb.and([
          eb.exists(eb.selectFrom('scenarios as s').select('s.id').whereRef('s.experiment_id', '=', 'e.id').where('s.status', 'in', ['COMPLETE', 'FAILED'])),
          eb.not(eb.exists(eb.selectFrom('scenarios as s').select('s.id').whereRef('s.experiment_id', '=', 'e.id').where('s.status', 'in', ['QUEUED', 'PROCESSING']))),
        ]),
      )
      .execute();
    return rows.map((r) => ({ id: r.id, sessionId: r.session_id }));
  }

  /** Removes the experiment row (its scenarios are deleted first, by the caller's batch delete). */
  async delete(sessionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('experiments').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** The queue position after every queued or running scenario: where a batch queued now starts. */
export async function queueBase(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('scenarios')
    .select(sql<number>`coalesce(max(queue_order), 0)`.as('top'))
    .where('status', 'in', ['QUEUED', 'PROCESSING'])
    .executeTakeFirstOrThrow();
  return Number(row.top);
}

function uniqueAs(refused: 'name-taken' | 'tag-taken') {
  return (err: unknown): never => {
    if (isUniqueViolation(err)) throw new Refused({ refused });
    throw err;
  };
}
