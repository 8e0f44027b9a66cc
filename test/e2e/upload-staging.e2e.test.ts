import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UNOWNED_LEFTOVER_AGE_MS } from '../../src/datasets/ingest/leftover-uploads.js';
import { currentOwner, stagedFileName } from '../../src/datasets/ingest/staged-name.js';
import { stagingDir } from '../../src/datasets/ingest/staging.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

/** Deadline for starting a server process and uploading to it (on a busy 2-core machine). */
const START_AND_UPLOAD_MS = 90_000;

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));

/** The pid of a process that ran and exited: no process of this machine has it now (barring reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

function stage(dir: string, name: string, ageMs = 0): string {
  writeFileSync(join(dir, name), 'a body cut short by a crash');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(join(dir, name), at, at);
  return name;
}

async function etl(server: ServerProcess, datasetName: string): Promise<{ status: number; body: { success?: boolean; keys?: string[] } }> {
  const { body, contentType } = multipartBody([
    { name: 'dataset_name', value: datasetName },
    { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
    { name: 'files', filename: 'warehouse_layout.csv', data: sample('warehouse_layout.csv') },
  ]);
  const res = await fetch(`${server.url}/api/v1/sessions/main/etl`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as { success?: boolean; keys?: string[] } };
}

describe.each(DIALECTS)('staged uploads left by a crash, on %s', (dialect) => {
  const servers: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    for (const cleanup of cleanups) await cleanup();
  });

  async function dataDirAndDatabase(): Promise<{ dataDir: string; args: string[] }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-staging-e2e-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    if (dialect === 'sqlite') return { dataDir, args: [] };
    const database: TestDatabase = await createTestDatabase('postgres');
    cleanups.push(() => database.drop());
    return { dataDir, args: ['--database-url', database.url] };
  }

  async function serve(dataDir: string, args: string[]): Promise<ServerProcess> {
    const server = await startServer({ dataDir, args });
    servers.push(server);
    return server;
  }

  it('are removed before the server listens; a live process\'s files stay; uploads still work', async () => {
    const { dataDir, args } = await dataDirAndDatabase();
    const uploads = stagingDir(dataDir);
    mkdirSync(uploads, { recursive: true });
    const { host } = currentOwner();
    const crashed = stage(uploads, stagedFileName({ host, pid: await deadPid() }));
    const unownedOld = stage(uploads, '3f2b0c7e-8d7c-4f4e-9a4e-2b6a0f1c9d11.upload', UNOWNED_LEFTOVER_AGE_MS + 60_000);
    // This test process stands for another server of this machine sharing the data directory.
    const inFlightElsewhere = stage(uploads, stagedFileName({ host, pid: process.pid }));

    const server = await serve(dataDir, args);

    expect(readdirSync(uploads)).not.toContain(crashed);
    expect(readdirSync(uploads)).not.toContain(unownedOld);
    expect(readdirSync(uploads)).toEqual([inFlightElsewhere]);
    await until('the start-up log line about the two removed files', () => server.output().includes('"removed":2'));

    const upload = await etl(server, 'after-restart');
    expect(upload.status).toBe(200);
    expect(upload.body.success).toBe(true);
    expect(upload.body.keys).toContain('after-restart');
    // The upload's own staged files went with its request.
    expect(readdirSync(uploads)).toEqual([inFlightElsewhere]);
  }, START_AND_UPLOAD_MS);

  // On SQLite a second server on the data directory is refused at start-up (one process per store): it
  // must leave the first one's staged files alone all the same.
  const secondServer = dialect === 'postgres' ? 'another live server' : 'a second server, refused,';
  it(`leave alone the staged files of ${secondServer} on the same data directory`, async () => {
    const { dataDir, args } = await dataDirAndDatabase();
    const first = await serve(dataDir, args);
    const uploads = stagingDir(dataDir);
    mkdirSync(uploads, { recursive: true });
    const ofFirst = stage(uploads, stagedFileName({ host: currentOwner().host, pid: first.child.pid! }));

    if (dialect === 'sqlite') {
      await expect(serve(dataDir, args)).rejects.toThrow(/many processes need PostgreSQL/);
      expect(readdirSync(uploads)).toEqual([ofFirst]);
      expect((await etl(first, 'on-the-first')).body.success).toBe(true);
      expect(readdirSync(uploads)).toEqual([ofFirst]);
      return;
    }
    const second = await serve(dataDir, args);

    expect(readdirSync(uploads)).toEqual([ofFirst]);
    expect((await etl(second, 'on-the-second')).body.success).toBe(true);
    expect((await etl(first, 'on-the-first')).body.success).toBe(true);
    expect(readdirSync(uploads)).toEqual([ofFirst]);
  }, 2 * START_AND_UPLOAD_MS);
});
