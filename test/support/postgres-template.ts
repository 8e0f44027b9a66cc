import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import { openStore } from '../../src/store/store.js';

/** The environment variable that hands the template's name from the global setup to the test workers. */
export const TEMPLATE_ENV = 'SCENARIST_TEST_POSTGRES_TEMPLATE';

/** How long an admin connection waits out a server at its connection limit (test files open stores side by side). */
const FULL_SERVER_WAIT_MS = 30_000;
/** PostgreSQL's refusals of a server at its connection limit, or starting up (as `src/store/postgres/full-server-wait.ts`). */
const BUSY_SERVER = new Set(['53300', '57P03']);

/** Runs one statement as the admin user of `adminUrl` on a connection of its own. */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = await adminConnection(adminUrl);
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A connection as the admin user: a server at its connection limit is waited out, with growing
 * pauses, as the store's own pools wait; any other refusal fails at once, naming the server.
 */
async function adminConnection(adminUrl: string): Promise<pg.Client> {
  const deadline = Date.now() + FULL_SERVER_WAIT_MS;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      return client;
    } catch (err) {
      await client.end().catch(() => {});
      const busy = BUSY_SERVER.has(String((err as { code?: unknown }).code));
      if (!busy || Date.now() + pause > deadline) {
        throw new Error(`PostgreSQL at ${adminUrl} is required by the test suite and is not reachable: ${(err as Error).message}`);
      }
      await delay(pause);
    }
  }
}

/** The URL of database `name` on the server of `adminUrl`, as the same user. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export interface PostgresTemplate {
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * A database migrated once per test run, which every test database is copied from. A fresh database
 * used to run the store's migrations and graphile-worker's on its first open: about 0.6 s of a
 * PostgreSQL test database's 0.75 s, measured on the 2-core CI machine, against 0.35 s for a copy of
 * this template. The name is random, so that test runs sharing a cluster never copy each other's.
 */
export async function createPostgresTemplate(adminUrl: string): Promise<PostgresTemplate> {
  const name = `scenarist_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = databaseUrl(adminUrl, name);
  const drop = () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  try {
    const store = await openStore(url);
    await store.close();
    await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
  } catch (err) {
    await drop();
    throw err;
  }
  return { name, drop };
}
