import type { Kysely } from 'kysely';
import { unpackChunk, VIOLATIONS_PER_CHUNK } from '../model/explanation/stored-explanation.js';
import type { Database } from './database.js';

/** A scenario's stored explanation, as its latest COMPLETE run left it. */
export interface ExplanationRow {
  readonly scenarioSeq: number;
  readonly kpisJson: string;
  readonly infeasible: boolean;
  readonly violationCount: number;
}

/**
 * Explanations of runs (`scenario_explanations`, `scenario_violation_chunks`, migration 0031). Each is
 * stamped with the `finished_at` its run's completion writes, and read only while the scenario is
 * COMPLETE with that same stamp: a later run or a reset leaves the row unserved without a write of its
 * own, so a run without an explanation costs nothing here. They are written with the completion, in
 * its transaction (src/store/runs/write-explanation.ts); this reads and copies them.
 */
export class ExplanationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The explanation of scenario `id` of `sessionId` when it is COMPLETE and its latest run gave one. */
  async read(sessionId: string, id: string): Promise<ExplanationRow | undefined> {
    const rows = await this.readMany(sessionId, [id]);
    return rows.get(id);
  }

  /** As `read`, for several scenarios at once (compare), by id. */
  async readMany(sessionId: string, ids: readonly string[]): Promise<Map<string, ExplanationRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('scenario_explanations as e')
      .innerJoin('scenarios as s', 's.seq', 'e.scenario_seq')
      .select(['s.id', 'e.scenario_seq', 'e.kpis', 'e.infeasible', 'e.violation_count'])
      .where('s.session_id', '=', sessionId)
      .where('s.id', 'in', ids)
      .where('s.status', '=', 'COMPLETE')
      .whereRef('e.finished_at', '=', 's.finished_at')
      .execute();
    return new Map(rows.map((r) => [r.id, { scenarioSeq: r.scenario_seq, kpisJson: r.kpis, infeasible: Number(r.infeasible) === 1, violationCount: Number(r.violation_count) }]));
  }

  /** Violations `from` to `from + limit − 1` (0-based, in served order) of the explanation of `scenarioSeq`. */
  async violations(scenarioSeq: number, from: number, limit: number): Promise<unknown[]> {
    if (limit <= 0) return [];
    const first = Math.floor(from / VIOLATIONS_PER_CHUNK);
    const last = Math.floor((from + limit - 1) / VIOLATIONS_PER_CHUNK);
    const rows = await this.db
      .selectFrom('scenario_violation_chunks')
      .select(['chunk', 'body'])
      .where('scenario_seq', '=', scenarioSeq)
      .where('chunk', '>=', first)
      .where('chunk', '<=', last)
      .orderBy('chunk')
      .execute();
    const all = rows.flatMap((r) => unpackChunk(r.body));
    const skip = from - first * VIOLATIONS_PER_CHUNK;
    return all.slice(skip, skip + limit);
  }

  /** After a session copy: the explanation of every COMPLETE copy, matched to its source by tag. */
  async copy(fromSessionId: string, toSessionId: string, db: Kysely<Database> = this.db): Promise<void> {
    const pairs = db
      .selectFrom('scenarios as source')
      .innerJoin('scenarios as copy', (join) => join.onRef('copy.tag', '=', 'source.tag').on('copy.session_id', '=', toSessionId))
      .where('source.session_id', '=', fromSessionId)
      .where('source.status', '=', 'COMPLETE')
      .where('copy.status', '=', 'COMPLETE');
    await db
      .insertInto('scenario_explanations')
      .columns(['scenario_seq', 'session_id', 'finished_at', 'infeasible', 'kpis', 'violation_count'])
      .expression(
        pairs
          .innerJoin('scenario_explanations as e', 'e.scenario_seq', 'source.seq')
          .select(['copy.seq', 'copy.session_id', 'e.finished_at', 'e.infeasible', 'e.kpis', 'e.violation_count']),
      )
      .execute();
    await db
      .insertInto('scenario_violation_chunks')
      .columns(['scenario_seq', 'chunk', 'body'])
      .expression(pairs.innerJoin('scenario_violation_chunks as v', 'v.scenario_seq', 'source.seq').select(['copy.seq', 'v.chunk', 'v.body']))
      .execute();
  }
}
