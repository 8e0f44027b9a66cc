import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * The indexed copy of each scenario's KPI values (`scenario_kpis`), which the list routes sort by.
 * Rows count only while their scenario is COMPLETE (see migration 0008), so only a completion and a
 * session copy write them.
 */

/**
 * Replaces the scenario's KPI rows with `kpis`. Called just before the run's completion is recorded:
 * should that write not apply (the run was cancelled), the rows of a non-COMPLETE scenario are ignored.
 */
export async function storeKpiValues(db: Kysely<Database>, scenarioId: string, kpis: Readonly<Record<string, number>>): Promise<void> {
  const seqOf = db.selectFrom('scenarios').select('seq').where('id', '=', scenarioId);
  await db.deleteFrom('scenario_kpis').where('scenario_seq', '=', seqOf).execute();
  const entries = Object.entries(kpis);
  if (entries.length === 0) return;
  const rows = entries.map(([name, value]) =>
    db
      .selectFrom('scenarios')
      .select(['seq as scenario_seq', 'session_id', sql<string>`cast(${name} as text)`.as('name'), sql<number>`cast(${value} as double precision)`.as('value')])
      .where('id', '=', scenarioId),
  );
  const union = rows.slice(1).reduce((query, next) => query.unionAll(next), rows[0]!);
  await db.insertInto('scenario_kpis').columns(['scenario_seq', 'session_id', 'name', 'value']).expression(union).execute();
}

/** After a session copy: the KPI rows of every COMPLETE copy, matched to its source by tag. */
export async function copyKpiValues(db: Kysely<Database>, fromSessionId: string, toSessionId: string): Promise<void> {
  await db
    .insertInto('scenario_kpis')
    .columns(['scenario_seq', 'session_id', 'name', 'value'])
    .expression(
      db
        .selectFrom('scenarios as source')
        .innerJoin('scenario_kpis as k', 'k.scenario_seq', 'source.seq')
        .innerJoin('scenarios as copy', (join) => join.onRef('copy.tag', '=', 'source.tag').on('copy.session_id', '=', toSessionId))
        .select(['copy.seq', 'copy.session_id', 'k.name', 'k.value'])
        .where('source.session_id', '=', fromSessionId)
        .where('source.status', '=', 'COMPLETE')
        .where('copy.status', '=', 'COMPLETE'),
    )
    .execute();
}
