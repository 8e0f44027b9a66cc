import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { resolveSettings } from '../../src/config/resolve.js';
import type { RawSettings } from '../../src/config/settings.js';
import { buildApp } from '../../src/http/app.js';
import { assemble, type Runtime } from '../../src/runtime/assemble.js';
import type { StoreDialect } from '../../src/store/dialect.js';
import { createTestDatabase, type TestDatabase } from './dialects.js';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly database: TestDatabase;
  /** Closes the app and runtime; the database stays for a restart. */
  stop(): Promise<void>;
  /** Closes everything and removes the database. */
  close(): Promise<void>;
}

/** The real app on a fresh database of the dialect, through the same composition root as the CLI. */
export async function startTestApp(dialect: StoreDialect, settings: RawSettings = {}, database?: TestDatabase): Promise<TestApp> {
  const db = database ?? (await createTestDatabase(dialect));
  // Threads here load the sources through tsx, which takes seconds on a loaded machine: a data thread
  // idle for the default 5 s between two steps of a test would exit and boot again for the next one.
  // Tests of the idle stop set their own.
  const resolved = resolveSettings({ data_dir: db.dir, database_url: db.url, workers: 2, data_thread_idle: '120s', ...settings });
  const runtime = await assemble(resolved, pino({ level: 'silent' }));
  // A route answering a code it does not declare fails the test that drove it (src/http/route-errors.ts).
  const app = await buildApp(runtime.services, { undeclaredErrorCodes: 'refuse' });
  await app.ready();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
    await runtime.close();
  };
  return {
    app,
    runtime,
    database: db,
    stop,
    close: async () => {
      await stop();
      await db.drop();
    },
  };
}
