import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrationsFor } from '../../src/store/migrations/migrate.js';
import { openStore } from '../../src/store/store.js';
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

const shared = { columns: [{ name: 'zone', type: 'string' }], rows: [['A'], ['B']] };
const FIRST = JSON.stringify({ skus: { columns: [{ name: 'sku', type: 'string' }, { name: 'picks', type: 'float' }], rows: [['S1', 1.5], ['S2', 2]] }, zones: shared });
const SECOND = JSON.stringify({ zones: shared, empty: { columns: [], rows: [] } });

describe.each(DIALECTS)('migration 0014-dataset-tables on %s', (dialect) => {
  it('moves every stored dataset into content-addressed tables, sharing identical ones, and drops tables_json', async () => {
    const database = await emptyDatabase(dialect);
    const store = await openStore(database.url, { migrate: false });
    try {
      const db = store.db as unknown as Kysely<unknown>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) }, allowUnorderedMigrations: true });
      const { error } = await migrator.migrateTo('0013-experiment-reruns');
      expect(error).toBeUndefined();
      const sessionId = randomUUID();
      const now = new Date().toISOString();
      await sql`insert into sessions (id, display_name, created_at) values (${sessionId}, 'old', ${now})`.execute(db);
      for (const [key, tables] of [['first', FIRST], ['second', SECOND]]) {
        await sql`insert into datasets (session_id, key, kind, created_at, version, tables_json) values (${sessionId}, ${key}, 'master', ${now}, ${randomUUID()}, ${tables})`.execute(db);
      }

      expect(await migrateToLatest(db, dialect)).toContain('0014-dataset-tables');

      expect((await store.datasets.get(sessionId, 'first'))!.tablesJson).toBe(FIRST);
      expect((await store.datasets.get(sessionId, 'second'))!.tablesJson).toBe(SECOND);
      const contents = await sql<{ n: number | string }>`select count(*) as n from table_contents`.execute(db);
      expect(Number(contents.rows[0]!.n)).toBe(3);
      await expect(sql`select tables_json from datasets`.execute(db)).rejects.toThrow(/tables_json/);
      expect(await store.datasets.getLineage(sessionId, 'first')).toMatchObject({ parentKey: null, editsJson: null });
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
