import { sql, type Kysely } from 'kysely';
import type { Database, StoredStatus } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { isUniqueViolation } from './errors.js';
import { queueBase } from './experiments-repository.js';
import { NO_RUN } from './run-columns.js';

/** A gate as stored; `spec` stays JSON text (the service parses it). */
export interface GateRecord {
  readonly seq: number;
  readonly id: string;
  readonly sessionId: string;
  readonly name: string;
  readonly specJson: string;
  readonly size: number;
  readonly createdAt: string;
}

export type GateSide = 'baseline' | 'candidate';

/** A scenario of a new gate: one side of one pair. */
export interface NewGateScenario {
  readonly id: string;
  readonly tag: string;
  readonly side: GateSide;
  readonly pair: number;
  readonly seed: number;
  readonly datasetKey: string;
  readonly algoName: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
}

export interface NewGate {
  readonly id: string;
  readonly sessionId: string;
  readonly name: string;
  readonly specJson: string;
  readonly createdAt: string;
  readonly scenarios: readonly NewGateScenario[];
  /** Every dataset key the scenarios use: all must exist for anything to be stored. */
  readonly datasetKeys: readonly string[];
}

/** Why a creation stored nothing. */
export type GateRefusal = { readonly refused: 'name-taken' | 'tag-taken' } | { readonly refused: 'missing-datasets'; readonly keys: string[] };

/** One run of a gate as its verdict reads it. */
export interface GateRunRow {
  readonly id: string;
  readonly pair: number;
  readonly side: GateSide;
  readonly status: StoredStatus;
  readonly kpiValuesJson: string | null;
}

const gateColumns = ['seq', 'id', 'session_id as sessionId', 'name', 'spec as specJson', 'size', 'created_at as createdAt'] as const;

/** Rows a multi-row INSERT takes at once: 16 values each, well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 400;

class Refused extends Error {
  constructor(readonly refusal: GateRefusal) {
    super(refusal.refused);
  }
}

function uniqueAs(refused: 'name-taken' | 'tag-taken') {
  return (err: unknown): never => {
    if (isUniqueViolation(err)) throw new Refused({ refused });
    throw err;
  };
}

/** Gate rows, and their scenarios as pairs (creation, progress, the runs a verdict reads). */
export class GatesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores the gate and all its scenarios, queued in creation order (each pair's two sides next to
   * each other), in one transaction; on any refusal nothing is stored. On PostgreSQL the datasets
   * are locked (`for share`) until the commit, as an experiment's are.
   */
  async create(gate: NewGate): Promise<GateRefusal | undefined> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('gates')
          .values({ id: gate.id, session_id: gate.sessionId, name: gate.name, spec: gate.specJson, size: gate.scenarios.length, created_at: gate.createdAt })
          .execute()
          .catch(uniqueAs('name-taken'));
        let datasets = trx.selectFrom('datasets').select('key').where('session_id', '=', gate.sessionId).where('key', 'in', gate.datasetKeys);
        datasets = dialectAdapterOf(trx).sharingRows(datasets);
        const found = new Set((await datasets.execute()).map((r) => r.key));
        const missing = gate.datasetKeys.filter((key) => !found.has(key));
        if (missing.length > 0) throw new Refused({ refused: 'missing-datasets', keys: missing });
        const base = await queueBase(trx);
        for (let i = 0; i < gate.scenarios.length; i += INSERT_CHUNK) {
          const rows = gate.scenarios.slice(i, i + INSERT_CHUNK).map((s, k) => ({
            ...NO_RUN,
            id: s.id,
            session_id: gate.sessionId,
            tag: s.tag,
            dataset_key: s.datasetKey,
            algo_name: s.algoName,
            algo_params: s.algoParamsJson,
            data_params: s.dataParamsJson,
            status: 'QUEUED' as const,
            queue_order: base + i + k + 1,
            queued_at: gate.createdAt,
            created_at: gate.createdAt,
            gate_id: gate.id,
            gate_pair: s.pair,
            gate_side: s.side,
            pinned_seed: s.seed,
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

  get(sessionId: string, id: string): Promise<GateRecord | undefined> {
    return this.db.selectFrom('gates').select(gateColumns).where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
  }

  /** A page of the session's gates in creation order, after `afterSeq`; up to `limit + 1` rows. */
  page(sessionId: string, limit: number, afterSeq: number | undefined): Promise<GateRecord[]> {
    let q = this.db.selectFrom('gates').select(gateColumns).where('session_id', '=', sessionId);
    if (afterSeq !== undefined) q = q.where('seq', '>', afterSeq);
    return q.orderBy('seq').limit(limit + 1).execute();
  }

  /** How many of the gate's scenarios are in each status. */
  async counts(sessionId: string, id: string): Promise<{ status: StoredStatus; count: number }[]> {
    const rows = await this.db
      .selectFrom('scenarios')
      .select(['status', sql<number>`count(*)`.as('count')])
      .where('session_id', '=', sessionId)
      .where('gate_id', '=', id)
      .groupBy('status')
      .execute();
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  /** Every scenario of the gate with its pair, side, status and stored KPI values, in creation order. */
  async runs(sessionId: string, id: string): Promise<GateRunRow[]> {
    const rows = await this.db
      .selectFrom('scenarios')
      .select(['id', 'gate_pair', 'gate_side', 'status', 'kpi_values'])
      .where('session_id', '=', sessionId)
      .where('gate_id', '=', id)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ id: r.id, pair: Number(r.gate_pair), side: r.gate_side ?? 'baseline', status: r.status, kpiValuesJson: r.kpi_values }));
  }

  /** The dataset keys of the session's last `n` published plans, newest first (a key once). */
  async planDatasetKeys(sessionId: string, n: number): Promise<string[]> {
    const rows = await this.db.selectFrom('plans').select('dataset_key').where('session_id', '=', sessionId).orderBy('seq', 'desc').limit(n).execute();
    return [...new Set(rows.map((r) => r.dataset_key))];
  }

  /** Every dataset of the session with the key it was derived from (null for a master or a copy). */
  async datasetParents(sessionId: string): Promise<{ key: string; parentKey: string | null }[]> {
    return this.db.selectFrom('datasets').select(['key', 'parent_key as parentKey']).where('session_id', '=', sessionId).orderBy('seq').execute();
  }

  /** Removes the gate row (its scenarios are deleted first, by the caller's batch delete). */
  async delete(sessionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('gates').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
