import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrationsFor } from '../../src/store/migrations/migrate.js';
import { contentHash } from '../../src/store/table-contents.js';
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

const TABLE = JSON.stringify({ columns: [{ name: 'zone', type: 'string' }], rows: [['A'], ['B']] });

describe.each(DIALECTS)('migration 0027-dataset-versions on %s', (dialect) => {
  it('makes every existing dataset version 1 of its key, with its tables, and records it on scenarios and the current plan', async () => {
    const database = await emptyDatabase(dialect);
    const store = await openStore(database.url, { migrate: false });
    try {
      const db = store.db as unknown as Kysely<unknown>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) }, allowUnorderedMigrations: true });
      expect((await migrator.migrateTo('0026-gates')).error).toBeUndefined();
      const sessionId = randomUUID();
      const now = new Date().toISOString();
      const hash = contentHash(TABLE);
      await sql`insert into sessions (id, display_name, created_at) values (${sessionId}, 'old', ${now})`.execute(db);
      await sql`insert into table_contents (hash, content, row_count, columns_json) values (${hash}, ${TABLE}, 2, '[{"name":"zone","type":"string"}]')`.execute(db);
      for (const [key, parent] of [['master', null], ['what-if', 'master']] as const) {
        await sql`insert into datasets (session_id, key, kind, created_at, version, parent_key) values (${sessionId}, ${key}, ${parent === null ? 'master' : 'derived'}, ${now}, ${randomUUID()}, ${parent})`.execute(db);
        await sql`insert into dataset_tables (dataset_seq, position, name, hash) select seq, 0, 'zones', ${hash} from datasets where key = ${key}`.execute(db);
      }
      const [ran, created] = [randomUUID(), randomUUID()];
      for (const [id, status, started] of [[ran, 'COMPLETE', now], [created, 'CREATED', null]] as const) {
        await sql`insert into scenarios (id, session_id, tag, dataset_key, algo_name, algo_params, data_params, status, progress, attempts, created_at, started_at)
          values (${id}, ${sessionId}, ${id}, 'master', 'Instant', '{}', '{}', ${status}, 0, 0, ${now}, ${started})`.execute(db);
      }
      await sql`insert into plans (id, session_id, scenario_id, tag, dataset_key, algo_name, kpis, note, published_by_id, published_at)
        values (${randomUUID()}, ${sessionId}, ${ran}, 'ran', 'master', 'Instant', '{}', 'old plan', 'local', ${now})`.execute(db);

      expect(await migrateToLatest(db, dialect)).toContain('0027-dataset-versions');

      const versions = await store.datasetVersions.listVersions(sessionId, 'master');
      expect(versions).toEqual([{ versionNo: 1, createdAt: now, createdBy: null, current: true, tables: [{ name: 'zones', rows: 2, hash }] }]);
      expect((await store.datasetVersions.getVersion(sessionId, 'master', 1))!.tablesJson).toBe((await store.datasets.get(sessionId, 'master'))!.tablesJson);
      expect(Object.fromEntries(await store.datasetVersions.currentVersions(sessionId))).toEqual({
        master: { version_no: 1, parent_key: null, parent_version: null },
        'what-if': { version_no: 1, parent_key: 'master', parent_version: 1 },
      });
      const scenarios = await store.db.selectFrom('scenarios').select(['id', 'dataset_version', 'result_dataset_version']).orderBy('seq').execute();
      expect(scenarios).toEqual([
        { id: ran, dataset_version: 1, result_dataset_version: 1 },
        { id: created, dataset_version: 1, result_dataset_version: null },
      ]);
      expect((await store.plans.current(sessionId))!.dataset_version).toBe(1);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
