import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { preparedByShape } from './prepared-query.js';

/**
 * The indexed copy of each scenario's KPI values (`scenario_kpis`), which the list routes sort by.
 * Rows count only while their scenario is COMPLETE (see migration 0008), so only a completion and a
 * session copy write them.
 */

/**
 * The upsert of `count` KPI values of the scenario `id`, one statement per number of KPIs (a domain's
 * count is fixed), compiled once with `preparedByShape`: it runs at every completion, on the hot path
 * of many short runs. Values are named `id`, `n0`, `v0`, `n1`, `v1`, ... (see `kpiValues`).
 */
export function kpiUpsert(db: Kysely<Database>, count: number, v: Record<string, string | number>) {
  const rows = Array.from({ length: count }, (_, i) =>
    db
      .selectFrom('scenarios')
      .select(['seq as scenario_seq', 'session_id', sql<string>`cast(${v[`n${i}`]} as text)`.as('name'), sql<number>`cast(${v[`v${i}`]} as double precision)`.as('value')])
      .where('id', '=', v.id as string),
  );
  const union = rows.slice(1).reduce((query, next) => query.unionAll(next), rows[0]!);
  return db
    .insertInto('scenario_kpis')
    .columns(['scenario_seq', 'session_id', 'name', 'value'])
    .expression(union)
    .onConflict((oc) => oc.columns(['scenario_seq', 'name']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })));
}

const upsertQuery = preparedByShape((count: number) => String(count), kpiUpsert);

/** The values `kpiUpsert` binds: `id`, then each KPI's name and value as `n0`, `v0`, `n1`, `v1`, ... */
export function kpiValues(scenarioId: string, kpis: Readonly<Record<string, number>>): Record<string, string | number> {
  const values: Record<string, string | number> = { id: scenarioId };
  Object.entries(kpis).forEach(([name, value], i) => {
    values[`n${i}`] = name;
    values[`v${i}`] = value;
  });
  return values;
}

/**
 * Writes the scenario's KPI values (replacing those of an earlier run), in one statement. Called just
 * before the run's completion is recorded: should that write not apply (the run was cancelled), the
 * rows of a non-COMPLETE scenario are ignored.
 */
export async function storeKpiValues(db: Kysely<Database>, scenarioId: string, kpis: Readonly<Record<string, number>>): Promise<void> {
  const count = Object.keys(kpis).length;
  if (count === 0) return;
  await upsertQuery(db, count, kpiValues(scenarioId, kpis));
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
