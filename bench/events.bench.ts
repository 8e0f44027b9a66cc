/**
 * Events fan-out: 1,000 SSE subscribers of one session on a SQLite server; each event (a session
 * rename) must reach every subscriber. p99 of delivery latency (time the event was logged, as its
 * `at` says, to the moment a subscriber has its frame), beside a bare node:http SSE server that
 * broadcasts the same way, measured in the same run. Budget: p99 < 100 ms.
 * Run: npm run build && node --import tsx bench/events.bench.ts
 */
import { spawn } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { report, startScenarist, type BenchServer } from './support.js';

const SUBSCRIBERS = 1_000;
const EVENTS = 40;
const GAP_MS = 100;

/** A subscriber's latencies in ms, from each event's `at` to its arrival. */
type Latencies = number[];

/** Opens `count` SSE connections; answers their latency lists and a function closing them all. */
async function subscribe(url: string, count: number): Promise<{ latencies: Latencies; received: () => number; close: () => void }> {
  const latencies: Latencies = [];
  const responses: IncomingMessage[] = [];
  let received = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`subscribe: ${res.statusCode}`));
        responses.push(res);
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = Date.now();
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const data = frame.split('\n').find((line) => line.startsWith('data: '));
            if (!data) continue;
            const sent = Date.parse((JSON.parse(data.slice(6)) as { at: string }).at);
            latencies.push(now - sent);
            received++;
          }
        });
        res.on('error', () => {});
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, open));
  return { latencies, received: () => received, close: () => responses.forEach((r) => r.destroy()) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** The baseline: plain node:http keeping SSE responses and writing each POSTed event to all of them. */
async function startBareSse(): Promise<BenchServer> {
  const port = await freePort();
  const code = `
    const clients = new Set(); let id = 0;
    require('node:http').createServer((req, res) => {
      if (req.method === 'POST') {
        const frame = 'id: ' + (++id) + '\\nevent: session.renamed\\ndata: ' + JSON.stringify({ id, type: 'session.renamed', at: new Date().toISOString() }) + '\\n\\n';
        for (const c of clients) c.write(frame);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' }); res.write('retry: 1000\\n\\n');
      clients.add(res); res.on('close', () => clients.delete(res));
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const p = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Subscribes, fires EVENTS events GAP_MS apart, waits for every delivery; answers p50 and p99. */
async function measure(streamUrl: string, fire: (i: number) => Promise<void>): Promise<{ p50: number; p99: number; delivered: number }> {
  const subs = await subscribe(streamUrl, SUBSCRIBERS);
  for (let i = 0; i < EVENTS; i++) {
    await fire(i);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  const deadline = Date.now() + 30_000;
  while (subs.received() < SUBSCRIBERS * EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  subs.close();
  const sorted = [...subs.latencies].sort((a, b) => a - b);
  return { p50: p(sorted, 0.5), p99: p(sorted, 0.99), delivered: subs.received() };
}

async function main(): Promise<void> {
  const bare = await startBareSse();
  const baseline = await measure(bare.url, async () => {
    await fetch(bare.url, { method: 'POST' });
  });
  await bare.stop();
  report(`bare node:http SSE, ${SUBSCRIBERS} subscribers, p99`, `${baseline.p99.toFixed(0)} ms`, 'baseline', true);
  report(`  p50`, `${baseline.p50.toFixed(0)} ms`, 'baseline', true);

  const server = await startScenarist(['--workers', '0']);
  try {
    const api = `${server.url}/api/v1`;
    const sessions = (await (await fetch(`${api}/sessions`)).json()) as { default: string };
    const sid = sessions.default;
    const result = await measure(`${api}/sessions/${sid}/events`, async (i) => {
      const res = await fetch(`${api}/sessions/${sid}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: `bench ${i}` }),
      });
      if (!res.ok) throw new Error(`rename: ${res.status}`);
    });
    const complete = result.delivered === SUBSCRIBERS * EVENTS;
    report(`scenarist SSE, ${SUBSCRIBERS} subscribers, SQLite, p99`, `${result.p99.toFixed(0)} ms`, '< 100 ms', result.p99 < 100 && complete);
    report(`  p50`, `${result.p50.toFixed(0)} ms`, 'for reference', true);
    report(`  deliveries`, `${result.delivered}/${SUBSCRIBERS * EVENTS}`, 'all', complete);
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
