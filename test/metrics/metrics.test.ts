import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { tokenFor } from '../auth/support.js';
import { DIALECTS } from '../support/dialects.js';
import { parsePrometheusText, sumOf, type Exposition } from '../support/prometheus-text.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const RUNS = 200;

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Exposition> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(res.body);
}

/** Scrapes until `done` holds of a scrape. */
function scrapeUntil(t: TestApp, what: string, done: (e: Exposition) => boolean): Promise<Exposition> {
  return until(what, async () => {
    const exposition = await scrape(t);
    return done(exposition) && exposition;
  }, { within: 60_000 });
}

describe.each(DIALECTS)('GET /metrics on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 2 });
  });
  afterAll(() => t?.close());

  // 200 runs through the app in this process: a minute or more when the machine is busy.
  it('parses while 200 runs go through, and its run counters add up to the runs made', async () => {
    const main = new ScenarioClient(injectSender(t.app), 'main');
    const before = await scrape(t);
    const started = sumOf(before, 'scenarist_runs_started_total');
    const ended = sumOf(before, 'scenarist_runs_ended_total', { status: 'complete' });
    // Scrapes run beside the runs, as a Prometheus server's would (paced, so they do not starve the
    // runs of the event loop they share here); each one must parse.
    let scraping = true;
    let scrapes = 0;
    const scraper = (async () => {
      while (scraping) {
        await scrape(t);
        scrapes++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) ids.push((await main.started({ tag: `metrics ${i}`, algo_name: 'Instant' })).id);
    for (const id of ids) expect((await main.waitFor(id)).status).toBe('COMPLETE');
    scraping = false;
    await scraper;
    expect(scrapes).toBeGreaterThan(0);

    const after = await scrapeUntil(t, 'every run to be counted as ended', (e) => sumOf(e, 'scenarist_runs_ended_total', { status: 'complete' }) - ended >= RUNS);
    expect(sumOf(after, 'scenarist_runs_started_total', { algorithm: 'Instant' }) - started).toBe(RUNS);
    expect(sumOf(after, 'scenarist_runs_ended_total', { status: 'complete', algorithm: 'Instant' }) - ended).toBe(RUNS);
    expect(sumOf(after, 'scenarist_runs_ended_total', { status: 'failed' })).toBe(0);
    expect(sumOf(after, 'scenarist_run_duration_seconds_count', { algorithm: 'Instant' })).toBeGreaterThanOrEqual(RUNS);
    // Nothing is queued once every run finished; the buckets are still exposed.
    expect(sumOf(after, 'scenarist_queue_runs')).toBe(0);
    expect(after.samples.filter((s) => s.name === 'scenarist_queue_oldest_age_seconds').map((s) => s.labels.session_queue)).toEqual([
      '1',
      '2-10',
      '11-100',
      '101+',
    ]);
    // Requests by route template, never by raw URL.
    const runRoute = after.samples.filter((s) => s.name === 'scenarist_http_request_duration_seconds_count' && s.labels.route === '/api/v1/sessions/:sid/scenarios/:id/run');
    expect(runRoute.find((s) => s.labels.status === '202')?.value).toBeGreaterThanOrEqual(RUNS);
    expect(after.samples.some((s) => s.labels.route?.includes(ids[0]!))).toBe(false);
    // The process's default metrics, and the gauges read from the store.
    expect(after.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(after.types.get('scenarist_webhook_deliveries')).toBe('gauge');
    expect(sumOf(after, 'scenarist_event_feed_lag_events')).toBe(0);
  }, 180_000);

  it('counts the rows and bytes of an ETL upload', async () => {
    const before = await scrape(t);
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' })).json<{ tables: Record<string, { rows: unknown[] }> }>();
    const rows = Object.values(body.tables).reduce((n, table) => n + table.rows.length, 0);
    expect(rows).toBeGreaterThan(0);
    // The example's tables as one CSV per table would need the domain's file names; a failing upload still counts its bytes.
    const boundary = 'metrics-boundary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="dataset_name"\r\n\r\nbad\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="nothing.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode).toBe(200);
    const after = await scrape(t);
    expect(sumOf(after, 'scenarist_etl_bytes_total') - sumOf(before, 'scenarist_etl_bytes_total')).toBe('a,b\n1,2\n'.length);
  });
});

describe('GET /metrics with authentication on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(DIALECTS[0]!, { workers: 1, auth: 'token' });
  });
  afterAll(() => t?.close());

  it('needs a metrics or admin token; a read token and no token are refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const read = await tokenFor(t, 'read');
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${read}` } })).statusCode).toBe(403);
    for (const scope of ['metrics', 'admin'] as const) {
      const token = await tokenFor(t, scope);
      await scrape(t, { authorization: `Bearer ${token}` });
    }
  });

  it('gives a metrics token nothing else', async () => {
    const token = await tokenFor(t, 'metrics');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/sessions', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
  });
});
