import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrationsFor } from '../../src/store/migrations/migrate.js';
import { openStore } from '../../src/store/store.js';
import { decodeManifest } from '../../src/store/table-pack-manifest-text.js';
import { DIALECTS, POSTGRES_ADMIN_URL } from '../support/dialects.js';
import { adminQuery, databaseUrl } from '../support/postgres-template.js';

/** An empty database (the test template is migrated already, so it is not used here). */
async function emptyDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'scenarist-migration-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `scenarist_migration_${randomBytes(6).toString('hex')}`;
  await adminQuery(POSTGRES_ADMIN_URL, `create database ${name}`);
  return { url: databaseUrl(POSTGRES_ADMIN_URL, name), drop: () => adminQuery(POSTGRES_ADMIN_URL, `drop database if exists ${name} with (force)`) };
}

const columns = [{ name: 'sku', type: 'string' }, { name: 'picks', type: 'float' }];
const SKUS = { columns, rows: Array.from({ length: 500 }, (_, i) => [`S${i} ü "q"`, i / 2]) };
const EDITED = { columns, rows: SKUS.rows.map((r, i) => (i === 250 ? [r[0], -1] : r)) };
const EMPTY = { columns: [], rows: [] };
const OTHER_ORDER = { rows: [['x', 1]], columns };

describe.each(DIALECTS)('migration 0028-table-chunks on %s', (dialect) => {
  it('makes every stored content one pack named whole, which later versions share, and drops content', async () => {
    const database = await emptyDatabase(dialect);
    const store = await openStore(database.url, { migrate: false });
    try {
      const db = store.db as unknown as Kysely<unknown>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) }, allowUnorderedMigrations: true });
      const { error } = await migrator.migrateTo('0027-dataset-versions');
      expect(error).toBeUndefined();
      const sessionId = randomUUID();
      const now = new Date().toISOString();
      await sql`insert into sessions (id, display_name, created_at) values (${sessionId}, 'old', ${now})`.execute(db);
      const datasets = { first: { skus: SKUS, empty: EMPTY }, second: { skus: EDITED, odd: OTHER_ORDER } };
      for (const [key, tables] of Object.entries(datasets)) {
        const { rows } = await sql<{ seq: number }>`insert into datasets (session_id, key, kind, created_at, version) values (${sessionId}, ${key}, 'master', ${now}, ${randomUUID()}) returning seq`.execute(db);
        for (const [position, [name, table]] of Object.entries(tables).entries()) {
          const json = JSON.stringify(table);
          const hash = createHash('sha256').update(json).digest('hex');
          await sql`insert into table_contents (hash, content, row_count, columns_json) values (${hash}, ${json}, ${table.rows.length}, ${JSON.stringify(table.columns)})
            on conflict (hash) do nothing`.execute(db);
          await sql`insert into dataset_tables (dataset_seq, position, name, hash) values (${rows[0]!.seq}, ${position}, ${name}, ${hash})`.execute(db);
        }
      }

      expect(await migrateToLatest(db, dialect)).toContain('0028-table-chunks');

      expect((await store.datasets.get(sessionId, 'first'))!.tablesJson).toBe(JSON.stringify(datasets.first));
      expect((await store.datasets.get(sessionId, 'second'))!.tablesJson).toBe(JSON.stringify(datasets.second));
      const refs = (await store.datasets.tableRefs(sessionId, 'second'))!;
      expect(refs.tables.map((t) => [t.name, t.rows])).toEqual([['skus', 500], ['odd', 1]]);
      // Each old content is one pack, named whole.
      const packCount = async () => Number((await sql<{ n: number | string }>`select count(*) as n from table_packs`.execute(db)).rows[0]!.n);
      const contents = (await sql<{ manifest: string }>`select manifest from table_contents`.execute(db)).rows.map((r) => decodeManifest(r.manifest));
      expect(contents).toHaveLength(4);
      expect(await packCount()).toBe(4);
      for (const { packs, segments } of contents) expect(segments).toEqual([[0, 0, packs[0]![1]]]);
      await expect(sql`select content from table_contents`.execute(db)).rejects.toThrow(/content/);
      // A version written after the migration names the migrated pack for all it shares with it.
      const { rows: before } = await sql<{ chars: number | string }>`select sum(length(text)) as chars from table_packs`.execute(db);
      const version = { skus: { columns, rows: EDITED.rows.map((r, i) => (i === 100 ? [r[0], -2] : r)) }, odd: OTHER_ORDER };
      await store.datasets.put({ sessionId, key: 'second', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: JSON.stringify(version) });
      expect((await store.datasets.get(sessionId, 'second'))!.tablesJson).toBe(JSON.stringify(version));
      expect(await packCount()).toBe(5);
      const { rows: after } = await sql<{ chars: number | string }>`select sum(length(text)) as chars from table_packs`.execute(db);
      // One chunk of rows around the changed one (chunks are some 128 characters), not the table's 11,000.
      expect(Number(after[0]!.chars) - Number(before[0]!.chars)).toBeLessThan(1_000);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
