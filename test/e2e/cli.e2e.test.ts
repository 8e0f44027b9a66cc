import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.dispose()));
});
/** The whole line (ended by its newline) the server logged for a request to `url`, once there is one. */
function requestLine(server: ServerProcess, url: string): string | undefined {
  return server.output().split('\n').slice(0, -1).find((line) => line.includes('"msg":"request"') && line.includes(`"url":"${url}"`));
}
async function serve(args: string[] = [], dataDir?: string, env?: NodeJS.ProcessEnv) {
  const server = await startServer({ args, ...(dataDir ? { dataDir } : {}), ...(env ? { env } : {}) });
  running.push(server);
  return server;
}

describe('scenarist serve as a real process', () => {
  it('serves health, seeds main with the example dataset, and stops cleanly on SIGTERM', async () => {
    const server = await serve(['--title', 'E2E']);
    const health = await (await fetch(`${server.url}/api/v1/health`)).json();
    expect(health).toEqual({ status: 'ok', title: 'E2E', sessions: ['main'], auth: 'none' });
    const keys = await (await fetch(`${server.url}/api/v1/sessions/main/data`)).json();
    expect(keys).toEqual({ keys: ['example'] });
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('drains once and exits 0 when a second Ctrl-C arrives during the drain', async () => {
    const server = await serve();
    // A run in progress makes the drain take a moment, so the second signal lands inside it.
    const created = await fetch(`${server.url}/api/v1/sessions/main/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tag: 'busy', dataset_key: 'example', algo_name: 'Busy', algo_params: { duration_ms: 60_000 } }),
    });
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${server.url}/api/v1/sessions/main/scenarios/${id}/run`, { method: 'POST' })).status).toBe(202);
    server.child.kill('SIGINT');
    // Signals of one kind do not queue: the second is sent once the first has started the drain.
    await until(() => `the drain to start:\n${server.output()}`, () => server.output().includes('shutting down'), { every: 10 });
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.child.signalCode).toBeNull();
  });

  it('keeps sessions across a restart on the same data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-restart-'));
    try {
      const first = await serve([], dataDir);
      const res = await fetch(`${first.url}/api/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: 'kept' }),
      });
      expect(res.status).toBe(201);
      expect(await first.stop('SIGINT')).toBe(0);
      const second = await serve([], dataDir);
      const list = (await (await fetch(`${second.url}/api/v1/sessions`)).json()) as { sessions: { display_name: string }[] };
      expect(list.sessions.map((s) => s.display_name)).toEqual(['main', 'kept']);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('honours a non-default prefix and settings from a config file and the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarist-cfg-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ prefix: '/from-file', title: 'file title' }));
    const server = await serve(['--config', config], undefined, { SCENARIST_TITLE: 'env title' });
    const res = await fetch(`${server.url}/from-file/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe('env title');
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(404);
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs the client address and scheme from X-Forwarded-* only when the proxy is trusted', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };
    const trusting = await serve(['--forwarded-allow-ips', '*']);
    await fetch(`${trusting.url}/api/v1/sessions`, { headers });
    const ignoring = await serve([]);
    await fetch(`${ignoring.url}/api/v1/sessions`, { headers });
    const listed = await serve(['--forwarded-allow-ips', '10.9.9.9']);
    await fetch(`${listed.url}/api/v1/sessions`, { headers });
    // The request is logged once its answer has gone: wait for each server's whole line of it.
    const [trusted, ignored, unlisted] = await Promise.all([trusting, ignoring, listed].map((server) => until('the request\'s log line', () => requestLine(server, '/api/v1/sessions'))));
    expect(trusted).toMatch(/"client":"203\.0\.113\.9","scheme":"https"/);
    expect(ignored).toMatch(/"client":"127\.0\.0\.1","scheme":"http"/);
    expect(ignoring.output()).not.toContain('203.0.113.9');
    expect(unlisted).toMatch(/"client":"127\.0\.0\.1","scheme":"http"/);
    expect(listed.output()).not.toContain('"client":"203.0.113.9"');
  });
});

describe('start-up with a bad setting', () => {
  it.each([
    [['--port', '0'], 'port'],
    [['--port', '70000'], 'port'],
    [['--prefix', 'api'], 'prefix'],
    [['--cors-origin', ''], 'cors_origins'],
    [['--default-algo', 'No Such Algorithm'], 'default_algo'],
    [['--autocreate', 'true'], 'autocreate'],
    [['--allow-session-create', 'sometimes'], 'allow_session_create'],
    [['--default-algo', 'Sleep', '--default-algo-params', '{"duration_ms": -5}'], 'default_algo_params'],
    [['--bogus-flag', 'x'], '--bogus-flag'],
  ])('exits non-zero with one line naming the setting for %j', async (args, name) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-bad-'));
    const port = await freePort();
    const { code, output } = await runCli(['serve', '--data-dir', dataDir, ...(args.includes('--port') ? [] : ['--port', String(port)]), ...args]);
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).not.toBe(0);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });

  it('prints help for each command', async () => {
    for (const command of ['serve', 'migrate', 'worker']) {
      const { code, output } = await runCli([command, '--help']);
      expect(code).toBe(0);
      expect(output).toContain(`scenarist ${command}`);
    }
    const serveHelp = await runCli(['serve', '--help']);
    for (const flag of ['--host', '--port', '--prefix', '--data-dir', '--database-url', '--title', '--cors-origin', '--allow-session-create', '--forwarded-allow-ips', '--autocreate', '--default-algo', '--default-algo-params', '--autorun', '--domain', '--workers', '--config']) {
      expect(serveHelp.output).toContain(flag);
    }
  });

  it('migrates a fresh database and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-migrate-'));
    const { code, output } = await runCli(['migrate', '--data-dir', dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(output).toContain('up to date');
  });
});
