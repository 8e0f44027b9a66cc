/**
 * What authentication costs on the hottest route: status polls with 32 connections with auth off,
 * with a token for every session, and with a session-bound token addressing its session by display
 * name (one cached session resolution more), beside a bare node:http server measured in the same run.
 * Throughput and CPU per request on a shared machine are noisy; the guard alone is also timed directly.
 * Run: npm run build && node --import tsx bench/auth.bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireToken } from '../src/auth/request-guard.js';
import { routeAccess } from '../src/auth/route-access.js';
import { TokenVerifier } from '../src/auth/token-verifier.js';
import { issueToken } from '../src/auth/issue-token.js';
import { TokensRepository } from '../src/store/tokens-repository.js';
import { openStore } from '../src/store/store.js';
import { json, report, startBareNode, startScenarist } from './support.js';

interface Scenario {
  id: string;
}

interface Poll {
  readonly requestsPerSecond: number;
  /** Server CPU time per request: unlike throughput, barely moved by other load on the machine. */
  readonly cpuMicrosPerRequest: number;
}

/** CPU seconds (user + system) the process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** 5 s of polling after 2 s of warm-up (JIT, caches) that are not counted. */
async function poll(pid: number, url: string, token?: string): Promise<Poll> {
  const options = { url, connections: 32, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) };
  await autocannon({ ...options, duration: 2 });
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration: 5 });
  const cpu = cpuSeconds(pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`status polling failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, cpuMicrosPerRequest: (cpu * 1e6) / result.requests.total };
}

async function statusUrlOf(baseUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const api = `${baseUrl}/api/v1/sessions/main`;
  const res = await fetch(`${api}/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ tag: 'probe', dataset_key: 'example', algo_name: 'Instant' }),
  });
  return `${api}/scenarios/${(await json<Scenario>(res)).id}/status`;
}

/**
 * The guard alone, called directly in a loop as Fastify calls it: the part of a request that auth
 * adds. Reported beside the server CPU per status request measured above.
 */
async function guardMicros(dataDir: string): Promise<{ unbound: number; bound: number }> {
  const store = await openStore(`sqlite:${join(dataDir, 'guard.db')}`);
  try {
    const tokens = new TokensRepository(store.db);
    const sessionId = '00000000-0000-4000-8000-000000000001';
    await store.sessions.insert({ id: sessionId, displayName: 'main', createdAt: new Date().toISOString() });
    const verifier = new TokenVerifier(tokens, { onFlushError: () => undefined });
    const deps = { verifier, resolveSessionId: async () => sessionId };
    const access = routeAccess({ method: 'GET', url: '/api/v1/sessions/:sid/scenarios/:id/status' }, ['', '/api/v1']);
    const hook = requireToken(access, deps);
    const reply = { header: () => reply } as unknown as FastifyReply;
    const timeOf = async (token: string) => {
      const request = { headers: { authorization: `Bearer ${token}` }, params: { sid: sessionId, id: 'x' }, query: {}, raw: {} } as unknown as FastifyRequest;
      const calls = 200_000;
      for (let i = 0; i < 20_000; i++) await hook(request, reply);
      const started = performance.now();
      for (let i = 0; i < calls; i++) await hook(request, reply);
      return ((performance.now() - started) * 1000) / calls;
    };
    const unbound = await timeOf((await issueToken(tokens, { scope: 'admin' })).token);
    const bound = await timeOf((await issueToken(tokens, { scope: 'read', sessionId })).token);
    await verifier.close();
    return { unbound, bound };
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const bare = await startBareNode();
  const bareRps = (await autocannon({ url: bare.url, connections: 32, duration: 5 })).requests.average;
  await bare.stop();
  report('bare node:http, 32 connections', `${bareRps.toFixed(0)} req/s`, 'baseline', true);

  const open = await startScenarist(['--workers', '1']);
  let off: Poll;
  try {
    off = await poll(open.pid, await statusUrlOf(open.url));
    report('GET status, auth none', `${off.requestsPerSecond.toFixed(0)} req/s`, 'reference', true);
    report('  server CPU per request', `${off.cpuMicrosPerRequest.toFixed(0)} µs`, 'reference', true);
  } finally {
    await open.stop();
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-bench-auth-'));
  const guarded = await startScenarist(['--workers', '1', '--auth', 'token', '--data-dir', dataDir]);
  const store = await openStore(`sqlite:${join(dataDir, 'scenarist.db')}`);
  try {
    const tokens = new TokensRepository(store.db);
    const mainId = (await store.sessions.findByName('main'))!.id;
    const admin = (await issueToken(tokens, { scope: 'admin' })).token;
    const bound = (await issueToken(tokens, { scope: 'read', sessionId: mainId })).token;
    const statusUrl = await statusUrlOf(guarded.url, { authorization: `Bearer ${admin}` });
    for (const [name, token] of [
      ['GET status, auth token (token for every session)', admin],
      ['GET status, auth token (bound token, sid by name)', bound],
    ] as const) {
      const measured = await poll(guarded.pid, statusUrl, token);
      const extra = measured.cpuMicrosPerRequest / off.cpuMicrosPerRequest - 1;
      report(name, `${measured.requestsPerSecond.toFixed(0)} req/s`, 'informative (shared CPU)', true);
      report('  server CPU per request', `${measured.cpuMicrosPerRequest.toFixed(0)} µs`, 'informative: ~ auth none', extra <= 0.1);
    }
    const guard = await guardMicros(dataDir);
    report('guard alone, token for every session', `${guard.unbound.toFixed(2)} µs`, '<= 10 µs (< 10 % of a status request)', guard.unbound <= 10);
    report('guard alone, bound token, sid by id', `${guard.bound.toFixed(2)} µs`, '<= 10 µs (< 10 % of a status request)', guard.bound <= 10);
  } finally {
    await store.close();
    await guarded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
