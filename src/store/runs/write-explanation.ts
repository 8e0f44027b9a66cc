import type { Kysely } from 'kysely';
import type { StoredExplanation } from '../../model/explanation/stored-explanation.js';
import type { Database } from '../database.js';

/** The keys of the scenario an explanation belongs to, as its completion answered them. */
export interface ScenarioKeys {
  readonly seq: number;
  readonly session_id: string;
}

/** Chunk rows per insert: each binds three values; 100,000 violations make 200 chunks, four statements. */
const CHUNKS_PER_STATEMENT = 50;

/**
 * Stores the explanation of `scenario`'s run finishing at `finishedAt`, replacing any earlier one.
 * `trx` is the transaction of the completion it belongs to (`completeRun`), so the explanation and the
 * COMPLETE it explains are one commit. It is stamped with that completion's `finished_at`: the reads
 * (src/store/explanations-repository.ts) serve it only while the scenario still carries that stamp,
 * so a later run or a reset leaves it unserved without a write of its own. Chunks past the new count
 * that an earlier, longer explanation left are never read (reads stop at `violation_count`) and go
 * with the scenario.
 */
export async function writeExplanation(trx: Kysely<Database>, scenario: ScenarioKeys, finishedAt: string, explanation: StoredExplanation): Promise<void> {
  await writeViolationChunks(trx, scenario.seq, explanation);
  const row = explanationRow(finishedAt, explanation);
  await trx
    .insertInto('scenario_explanations')
    .values({ scenario_seq: scenario.seq, session_id: scenario.session_id, ...row })
    .onConflict((oc) => oc.column('scenario_seq').doUpdateSet(row))
    .execute();
}

/** The explanation's own row, beside its scenario's keys (see `writeExplanation`). */
export function explanationRow(finishedAt: string, explanation: StoredExplanation) {
  return { finished_at: finishedAt, infeasible: explanation.infeasible ? 1 : 0, kpis: explanation.kpisJson, violation_count: explanation.violationCount };
}

/** The explanation's violations, in chunks of rows (none for an explanation without violations). */
export async function writeViolationChunks(trx: Kysely<Database>, seq: number, explanation: StoredExplanation): Promise<void> {
  const chunks = explanation.violationChunks.map((body, chunk) => ({ scenario_seq: seq, chunk, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) }));
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_STATEMENT) {
    await trx
      .insertInto('scenario_violation_chunks')
      .values(chunks.slice(i, i + CHUNKS_PER_STATEMENT))
      .onConflict((oc) => oc.columns(['scenario_seq', 'chunk']).doUpdateSet((eb) => ({ body: eb.ref('excluded.body') })))
      .execute();
  }
}
