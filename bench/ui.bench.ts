/**
 * Dashboard budgets: first load of /ui at most 150 KB of gzipped JavaScript (charts load later), interactive in under 1 s on
 * loopback, and a status change visible in the UI under 300 ms after it happens on the server. Each
 * figure beside a bare node:http page measured in the same run, in Debian's Chromium.
 * Run: npm run build && node --import tsx bench/ui.bench.ts
 */
import { createServer } from 'node:http';
import { launchChromium, type Page } from '../web/e2e/support/browser.js';
import { json, post, report, startScenarist } from './support.js';

const LOADS = 10;
const CHANGES = 10;

interface Scenario {
  id: string;
  status: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

/** A bare node:http page with one button: the floor for "interactive" on this machine and browser. */
async function bareUrl(): Promise<{ url: string; close: () => Promise<void> }> {
  const html = '<!doctype html><html lang="en"><title>bare</title><body><button id="ready">ready</button></body></html>';
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Milliseconds from navigation start until `ready` (a JS expression) holds, in a fresh browser context. */
async function timeToReady(browser: Awaited<ReturnType<typeof launchChromium>>, url: string, ready: string): Promise<{ ms: number; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(`(${ready}) ? performance.now() : false`, undefined, { polling: 'raf', timeout: 30_000 });
  return { ms: (await handle.jsonValue()) as number, page };
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const bare = await bareUrl();
  const bareTimes: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const { ms, page } = await timeToReady(browser, bare.url, `document.querySelector('#ready')`);
    bareTimes.push(ms);
    await page.context().close();
  }
  await bare.close();
  report('bare node:http page, time to a button', `${median(bareTimes).toFixed(0)} ms`, 'baseline', true);

  const server = await startScenarist(['--workers', '1']);
  try {
    const ui = `${server.url}/api/v1/ui/`;
    const api = `${server.url}/api/v1/sessions/main`;

    // 1. First load: the JavaScript the page fetched to show the scenarios page, as transferred (gzip).
    const scenariosReady = `document.querySelector('#scenario-dataset option[value="example"]') && document.querySelector('#algo-depot_x')`;
    const first = await timeToReady(browser, `${ui}#/s/main/scenarios`, scenariosReady);
    const jsBytes = (await first.page.evaluate(
      `performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).reduce((n, e) => n + e.encodedBodySize, 0)`,
    )) as number;
    await first.page.context().close();
    report('first load of /ui: JavaScript, gzipped', `${(jsBytes / 1024).toFixed(0)} KB`, '<= 150 KB', jsBytes <= 150 * 1024);

    // 2. Interactive: the scenarios page with its create form filled from the API, cold cache each time.
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const { ms, page } = await timeToReady(browser, `${ui}#/s/main/scenarios`, scenariosReady);
      times.push(ms);
      await page.context().close();
    }
    report(`interactive (scenarios page + form), median of ${LOADS}`, `${median(times).toFixed(0)} ms`, '< 1000 ms', median(times) < 1000);
    report(`  p95`, `${p95(times).toFixed(0)} ms`, '< 1000 ms', p95(times) < 1000);

    // 3. A status change on the server (run, reset) until the card shows it: wall clock on both sides.
    const scenario = await json<Scenario>(post(`${api}/scenarios`, { tag: 'latency', dataset_key: 'example', algo_name: 'As-Is Slotting' }));
    const watch = await timeToReady(browser, `${ui}#/s/main/scenarios`, `document.querySelector('[data-testid=scenario-card][data-tag="latency"]')`);
    const page = watch.page;
    await page.evaluate(`(() => {
      window.__seen = [];
      const card = document.querySelector('[data-testid=scenario-card][data-tag="latency"]');
      new MutationObserver(() => {
        const c = document.querySelector('[data-testid=scenario-card][data-tag="latency"]');
        window.__seen.push({ status: c ? c.dataset.status : null, at: performance.timeOrigin + performance.now() });
      }).observe(card.parentElement, { subtree: true, attributes: true, attributeFilter: ['data-status'], childList: true });
    })()`);
    const latencies: number[] = [];
    const seenAfter = async (from: number, statuses: string[]): Promise<number> => {
      const handle = await page.waitForFunction(
        `window.__seen.find((s) => s.at >= ${from} && ${JSON.stringify(statuses)}.includes(s.status))`,
        undefined,
        { timeout: 30_000 },
      );
      return ((await handle.jsonValue()) as { at: number }).at;
    };
    for (let i = 0; i < CHANGES; i++) {
      let changedAt = Date.now();
      await json(fetch(`${api}/scenarios/${scenario.id}/run`, { method: 'POST' }));
      latencies.push((await seenAfter(changedAt, ['QUEUED', 'PROCESSING', 'COMPLETE'])) - changedAt);
      await seenAfter(changedAt, ['COMPLETE']);
      changedAt = Date.now();
      await json(fetch(`${api}/scenarios/${scenario.id}/reset`, { method: 'POST' }));
      latencies.push((await seenAfter(changedAt, ['CREATED'])) - changedAt);
    }
    const mode = await page.getByTestId('live-mode').getAttribute('data-mode');
    await page.context().close();
    report(`status change visible in the UI (${mode}), median of ${latencies.length}`, `${median(latencies).toFixed(0)} ms`, '< 300 ms', median(latencies) < 300);
    report(`  p95`, `${p95(latencies).toFixed(0)} ms`, '< 300 ms', p95(latencies) < 300);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
