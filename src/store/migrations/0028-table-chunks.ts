import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import type { Database } from '../database.js';
import { encodeManifest } from '../table-pack-manifest-text.js';

/**
 * Tables' texts in packs (see `src/store/table-contents.ts`): `table_packs` holds texts, `table_contents`
 * gains its `manifest` (the stretches of packs its text is made of) and `table_content_packs` says which
 * packs each content names, for the collector. Every stored content becomes one pack named whole, one
 * at a time (a store with large tables is never read whole into memory), and `content` is dropped.
 * Versions written later share with these packs (`putContents`).
 */
export function tableChunksMigration(dialect: StoreDialect) {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      await untyped.schema
        .createTable('table_packs')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await untyped.schema.alterTable('table_contents').addColumn('manifest', 'text', (c) => c.notNull().defaultTo('')).execute();
      await untyped.schema
        .createTable('table_content_packs')
        .addColumn('hash', 'text', (c) => c.notNull().references('table_contents.hash').onDelete('cascade'))
        // No cascade: a pack goes only when no content names it (`dropUnusedPacks`).
        .addColumn('pack_id', 'integer', (c) => c.notNull().references('table_packs.id'))
        .addPrimaryKeyConstraint('table_content_packs_pk', ['hash', 'pack_id'])
        .execute();
      await untyped.schema.createIndex('table_content_packs_by_pack').on('table_content_packs').column('pack_id').execute();

      const db = untyped as unknown as Kysely<Database>;
      const { rows } = await sql<{ hash: string }>`select hash from table_contents order by hash`.execute(db);
      for (const { hash } of rows) {
        const { rows: found } = await sql<{ content: string }>`select content from table_contents where hash = ${hash}`.execute(db);
        const text = found[0]!.content;
        const { rows: pack } = await sql<{ id: number | string }>`insert into table_packs (text) values (${text}) returning id`.execute(db);
        const id = Number(pack[0]!.id);
        // The manifest's lengths count UTF-16 code units, as `src/store/table-pack-manifest.ts` cuts.
        const manifest = encodeManifest({ packs: [[id, text.length]], segments: [[0, 0, text.length]] });
        await sql`update table_contents set manifest = ${manifest} where hash = ${hash}`.execute(db);
        await sql`insert into table_content_packs (hash, pack_id) values (${hash}, ${id})`.execute(db);
      }
      await untyped.schema.alterTable('table_contents').dropColumn('content').execute();
    },
  };
}
