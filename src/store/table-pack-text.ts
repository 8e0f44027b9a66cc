import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';

export { unpackTable } from './table-pack-manifest.js';

/**
 * The stored form of the table content aliased `alias` (a `table_contents` row) as one text: its
 * manifest, a newline, and the texts of the packs it names, each after its id and a space
 * (`DialectAdapter.joinedPacks`); `unpackTable` of `src/store/table-pack-manifest.ts` cuts the table's
 * text out of it. An expression, so a query that reads datasets with their tables stays one statement:
 * one snapshot, so a pack the table names cannot be collected halfway (`dropUnusedPacks` in
 * `src/store/table-pack-store.ts`), and each pack crosses the wire once per table, whole. The database
 * only concatenates: cutting is done in JavaScript, where a slice of a string costs nothing and offsets
 * count as the writer counted them.
 */
export function packedTable(db: Kysely<Database>, alias: string): RawBuilder<string> {
  const packs = dialectAdapterOf(db).joinedPacks(sql.ref(`${alias}.hash`));
  return sql<string>`(${sql.ref(`${alias}.manifest`)} || ${'\n'} || coalesce(${packs}, ''))`;
}
