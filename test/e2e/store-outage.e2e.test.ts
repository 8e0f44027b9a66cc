import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_RETRY_AFTER_SECONDS } from '../../src/http/errors.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly text: string;
}

async function send(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

/** Waits for the server to have printed a line matching `pattern` (its log is written asynchronously). */
async function logged(server: ServerProcess, pattern: RegExp): Promise<void> {
  await until(() => `the server to log ${String(pattern)}:\n${server.output().slice(-2000)}`, () => pattern.test(server.output()));
}

const createSession = (server: ServerProcess, name: string) => send(server, 'POST', '/api/v1/sessions', { display_name: name });

/** The answer of a request the database could not serve: a 503 a client can tell from a bug, and no driver text. */
function expectStoreUnavailable(answer: Answer, driverWords: RegExp): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.retryAfter).toBe(String(STORE_RETRY_AFTER_SECONDS));
  expect(JSON.parse(answer.text)).toEqual({ code: 'STORE_UNAVAILABLE', detail: expect.stringContaining('the database does not answer') as string });
  expect(answer.text).not.toMatch(driverWords);
}

describe.runIf(DIALECTS.includes('postgres'))('a server whose PostgreSQL goes away', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const direct = new URL(database.url);
    proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    server = await startServer({ args: ['--database-url', proxied.href, '--workers', '0', '--log-level', 'warn'] });
  }, 90_000);
  afterAll(async () => {
    await server?.dispose();
    await proxy?.cut();
    await database?.drop();
  });

  it('answers 503 STORE_UNAVAILABLE with Retry-After, and readiness says so without the driver text, which goes to the log', async () => {
    expect((await createSession(server, 'before')).status).toBe(201);
    expect((await send(server, 'GET', '/health/ready')).status).toBe(200);

    await proxy.cut();
    const driverWords = new RegExp(`ECONNREFUSED|Connection terminated|127\\.0\\.0\\.1|${proxy.port}`);
    expectStoreUnavailable(await createSession(server, 'during'), driverWords);
    // A read too: the session list, and a scenario list through the session's name.
    expectStoreUnavailable(await send(server, 'GET', '/api/v1/sessions/before/scenarios'), driverWords);

    const ready = await send(server, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ status: 'unavailable', reason: 'the database does not answer' });
    // The operator still learns what the driver said, from the log.
    await logged(server, /"msg":"store unavailable"/);
    await logged(server, /ECONNREFUSED|Connection terminated/);
    expect((await send(server, 'GET', '/health/live')).status).toBe(200);
  }, 60_000);
});

describe.runIf(DIALECTS.includes('sqlite'))('a SQLite server whose database file another process keeps locked', () => {
  let server: ServerProcess;
  let intruder: BetterSqlite3.Database;
  beforeAll(async () => {
    server = await startServer({ args: ['--workers', '0', '--log-level', 'warn'] });
    intruder = new BetterSqlite3(join(server.dataDir, 'scenarist.db'));
  }, 90_000);
  afterAll(async () => {
    intruder?.close();
    await server?.dispose();
  });

  it('answers a write 503 STORE_UNAVAILABLE with Retry-After once busy_timeout runs out, and serves it once the lock is gone', async () => {
    // The JSON form of the seeded dataset, stored again below by an upload thread (its own connection).
    const form = await send(server, 'GET', '/api/v1/sessions/main/data/example');
    expect(form.status).toBe(200);
    const upload = () => send(server, 'POST', '/api/v1/sessions/main/data/from-json', JSON.parse(form.text) as unknown);
    // A backup tool or a sqlite3 shell holding a write transaction: the server's writes wait busy_timeout, then fail.
    intruder.exec('BEGIN EXCLUSIVE');
    try {
      expectStoreUnavailable(await createSession(server, 'while locked'), /SQLITE_BUSY|database is locked/);
      await logged(server, /"code":"SQLITE_BUSY".*"msg":"store unavailable"/);
      // A write on an upload thread: its failure crosses to the HTTP thread and is answered the same.
      expectStoreUnavailable(await upload(), /SQLITE_BUSY|database is locked/);
    } finally {
      intruder.exec('ROLLBACK');
    }
    expect((await createSession(server, 'while locked')).status).toBe(201);
    expect((await upload()).status).toBe(201);
  }, 90_000);
});
