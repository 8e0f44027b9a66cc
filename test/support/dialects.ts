import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreDialect } from '../../src/store/dialect.js';
import { adminQuery, databaseUrl, TEMPLATE_ENV } from './postgres-template.js';

/**
 * The store dialects every store and route suite runs against. PostgreSQL is not
 * optional: when it is unreachable the suite fails. `SCENARIST_TEST_DIALECTS=sqlite` narrows a local run.
 */
export const DIALECTS: readonly StoreDialect[] = (process.env.SCENARIST_TEST_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is StoreDialect => d === 'sqlite' || d === 'postgres');

/** Set by the global setup (`test-postgres.ts`): the configured, local or embedded PostgreSQL. */
export const POSTGRES_ADMIN_URL = process.env.SCENARIST_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly url: string;
  /** A scratch directory for the test (data_dir). */
  readonly dir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of the dialect: a temp SQLite file, or a new PostgreSQL database. On PostgreSQL it is
 * a copy of the run's migrated template when the global setup made one (the store and graphile-worker
 * find their schemas current, as on a deployed server's second start); else it is empty.
 */
export async function createTestDatabase(dialect: StoreDialect): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-test-'));
  if (dialect === 'sqlite') {
    return { url: `sqlite:${join(dir, 'test.db')}`, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `scenarist_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[TEMPLATE_ENV];
  await adminQuery(POSTGRES_ADMIN_URL, `create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: databaseUrl(POSTGRES_ADMIN_URL, name),
    dir,
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
      await adminQuery(POSTGRES_ADMIN_URL, `drop database if exists ${name} with (force)`);
    },
  };
}
