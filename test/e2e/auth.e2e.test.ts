import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.dispose()));
});
async function serve(args: string[]) {
  const server = await startServer({ args });
  running.push(server);
  return server;
}

interface ListedToken {
  id: string;
  name: string | null;
  scope: string;
  session: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** `scenarist token ...` against the server's data directory; the secret is the line starting sct_. */
async function tokenCli(server: ServerProcess, args: string[]) {
  return runCli(['token', ...args, '--data-dir', server.dataDir]);
}
async function createToken(server: ServerProcess, args: string[]): Promise<string> {
  const { code, output } = await tokenCli(server, ['create', ...args]);
  expect(code, output).toBe(0);
  const token = /^sct_[A-Za-z0-9_-]{43}$/m.exec(output)?.[0];
  expect(token, output).toBeDefined();
  return token!;
}
async function listTokens(server: ServerProcess): Promise<ListedToken[]> {
  const { code, output } = await tokenCli(server, ['list', '--json']);
  expect(code, output).toBe(0);
  return JSON.parse(output) as ListedToken[];
}
function get(server: ServerProcess, path: string, token?: string) {
  return fetch(`${server.url}/api/v1${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

describe('API tokens with the real CLI and a real server process', () => {
  it('creates, uses, lists and revokes tokens', async () => {
    const server = await serve(['--auth', 'token']);
    expect(server.output()).toContain('authentication on');
    expect(server.output()).toContain('no API token exists yet');

    const runner = await createToken(server, ['--scope', 'run', '--session', 'main', '--name', 'ci']);
    const admin = await createToken(server, ['--scope', 'admin']);
    expect((await get(server, '/sessions/main/scenarios')).status).toBe(401);
    expect((await get(server, '/sessions/main/scenarios', runner)).status).toBe(200);
    const created = await fetch(`${server.url}/api/v1/sessions/main/scenarios`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tag: 'e2e', dataset_key: 'example', algo_name: 'As-Is Slotting' }),
    });
    expect(created.status).toBe(201);

    const other = await fetch(`${server.url}/api/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'other' }),
    });
    expect(other.status).toBe(201);
    const refused = await get(server, '/sessions/other/scenarios', runner);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ detail: expect.any(String) });
    const listed = (await (await get(server, '/sessions', runner)).json()) as { sessions: { display_name: string }[] };
    expect(listed.sessions.map((s) => s.display_name)).toEqual(['main']);

    const tokens = await listTokens(server);
    expect(tokens.map((t) => [t.scope, t.session, t.name, t.revoked_at])).toEqual([
      ['run', 'main', 'ci', null],
      ['admin', null, null, null],
    ]);
    const table = await tokenCli(server, ['list']);
    expect(table.output).toContain(tokens[0]!.id);
    expect(table.output).not.toContain(runner);

    const revoked = await tokenCli(server, ['revoke', tokens[0]!.id]);
    expect(revoked.code, revoked.output).toBe(0);
    // Revocation reaches the running server within its few seconds of token cache.
    await until('the revoked token to be refused', async () => (await get(server, '/sessions/main/scenarios', runner)).status === 401);
    expect((await get(server, '/sessions/main/scenarios', admin)).status).toBe(200);
    expect((await tokenCli(server, ['revoke', tokens[0]!.id])).output).toContain('already revoked');

    // Last use is written off the request path, at the latest when the server stops.
    expect(await server.stop('SIGTERM')).toBe(0);
    const after = await listTokens(server);
    expect(after[0]!.revoked_at).not.toBeNull();
    expect(after[1]!.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  }, 120_000);

  it('rejects bad token commands with a message and a non-zero exit', async () => {
    const server = await serve([]);
    for (const args of [
      ['create'],
      ['create', '--scope', 'root'],
      ['create', '--scope', 'read', '--session', 'no-such-session'],
      ['revoke'],
      ['revoke', 'no-such-id'],
      ['rotate'],
    ]) {
      const { code, output } = await tokenCli(server, args);
      expect(code, `${args.join(' ')}: ${output}`).not.toBe(0);
      expect(output.trim().length, args.join(' ')).toBeGreaterThan(0);
    }
    expect(await listTokens(server)).toEqual([]);
    const help = await runCli(['token', '--help']);
    expect(help.code).toBe(0);
    expect(help.output).toContain('token create --scope read|run|admin');
  }, 120_000);
});

describe('a server bound to a non-loopback address', () => {
  it('requires a token unless auth is set, and says so at start-up', async () => {
    const server = await serve(['--host', '0.0.0.0']);
    expect(server.output()).toContain('0.0.0.0 is not a loopback address');
    expect((await get(server, '/sessions')).status).toBe(401);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const token = await createToken(server, ['--scope', 'read']);
    expect((await get(server, '/sessions', token)).status).toBe(200);
  }, 60_000);

  it('serves without tokens with an explicit --auth none, and warns', async () => {
    const server = await serve(['--host', '0.0.0.0', '--auth', 'none']);
    expect(server.output()).toMatch(/authentication off on 0\.0\.0\.0/);
    expect((await get(server, '/sessions')).status).toBe(200);
  });
});
