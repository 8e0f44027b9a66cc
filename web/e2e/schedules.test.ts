import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { until } from '../../test/support/until.ts';
import type { Schedule } from '../src/api/schedules.ts';
import type { Scenario } from '../src/api/types.ts';
import { apiGet } from './support/api.ts';
import { launchChromium } from './support/browser.ts';
import { collectCspViolations } from './support/csp.ts';
import { inspectPage } from './support/inspect.ts';
import { PREFIX, RESULTS, SAMPLE, SAMPLE_FILES } from './support/paths.ts';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
/** Per step: real runs, screenshots and axe on a busy shared machine. */
const STEP_MS = 300_000;
const NAME = 'every two seconds';

/**
 * A schedule through the dashboard and the real server (issue #44): written on the Schedules page with
 * a raw cron and a time zone, its next runs previewed by the server (a zone it refuses said in its
 * words), created to rerun a scenario; its page shows its runs as the server ticks them, done, with the
 * scenario as a link; paused and deleted from the page. The pages pass axe and do not scroll sideways
 * at 390 px (screenshots in web/test-results/).
 */
describe.each(DIALECTS)('a schedule in the dashboard (%s)', (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const api = (path: string) => `${server.url}${PREFIX}${path}`;
  const ui = (hash: string) => `${server.url}${PREFIX}/ui/#${hash}`;
  let scenarioId = '';

  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase(dialect);
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    const form = new FormData();
    form.append('dataset_name', 'sample');
    for (const name of SAMPLE_FILES) form.append('files', new Blob([readFileSync(`${SAMPLE}${name}`)], { type: 'text/csv' }), name);
    expect((await fetch(api('/sessions/main/etl'), { method: 'POST', body: form })).status).toBe(200);
    scenarioId = (await post<Scenario>('/sessions/main/scenarios', { tag: 'd-asis', dataset_key: 'sample', algo_name: 'As-Is Slotting' })).id;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORTS[0], colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    collectCspViolations(page, pageErrors);
  }, STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await db?.drop();
  });

  async function inspect(name: string): Promise<void> {
    await inspectPage(page, name, { dialect, viewports: VIEWPORTS, shot: (width, theme) => `${RESULTS}${dialect}-schedules-${name}-${width}-${theme}.png` });
    expect(pageErrors).toEqual([]);
  }

  const schedules = async () => (await apiGet<{ schedules: Schedule[] }>(api('/sessions/main/schedules'))).body.schedules;

  it('writes a schedule with a live preview of its runs, and shows a refused time zone in words', async () => {
    await page.goto(ui('/s/main/schedules'));
    await page.getByText('No schedules yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill(NAME);
    await page.getByRole('radio', { name: 'Advanced: a cron expression' }).check();
    await page.getByLabel('cron expression', { exact: true }).fill('*/2 * * * * *');
    await page.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus');
    // The server's cron library decides: its refusal of the zone, in its words.
    await page.getByTestId('tick-preview').getByRole('alert').waitFor();
    expect(await page.getByTestId('tick-preview').getByRole('alert').innerText()).toMatch(/Mars\/Olympus/);
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Amsterdam');
    const ticks = page.getByTestId('next-ticks').locator('time');
    await expect.poll(() => ticks.count()).toBe(5);
    const times = (await ticks.evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''))).map((t) => Date.parse(t));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([2000, 2000, 2000, 2000]);
    await page.getByRole('radio', { name: 'Rerun a scenario' }).check();
    await page.getByLabel('scenario to rerun', { exact: true }).selectOption({ label: 'd-asis' });
    await inspect('form');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByTestId('schedule-item').waitFor();
    const [created] = await schedules();
    expect(created).toMatchObject({ name: NAME, cron: '*/2 * * * * *', timezone: 'Europe/Amsterdam', active: true, action: { kind: 'rerun', scenario: scenarioId } });
    expect(await page.getByTestId('schedule-item').innerText()).toContain('every 2 seconds (Europe/Amsterdam)');
  }, STEP_MS);

  it("shows the schedule's runs as the server ticks them, with the scenario each ran as a link", async () => {
    await page.getByRole('link', { name: NAME }).click();
    await page.waitForURL(/#\/s\/main\/schedules\/[^/?]+$/);
    await page.locator('[data-testid=tick-row][data-status=done]').first().waitFor({ timeout: 120_000 });
    const done = page.locator('[data-testid=tick-row][data-status=done]').first();
    const link = done.getByTestId('tick-scenario');
    expect(await link.innerText()).toBe('d-asis');
    expect(await link.getAttribute('href')).toContain(`/s/main/scenarios/${scenarioId}`);
    expect(await page.title()).toBe(`Schedule ${NAME} · main · Scenarist`);
    await inspect('runs');
  }, STEP_MS);

  it('pauses the schedule and deletes it after asking', async () => {
    await page.getByRole('button', { name: `Pause ${NAME}` }).click();
    await page.getByTestId('schedule-state').filter({ hasText: 'paused' }).waitFor();
    await until('the server has it paused', async () => (await schedules())[0]?.active === false, { within: 30_000, every: 250 });
    expect(await page.getByTestId('schedule-next').innerText()).toBe('none while paused');
    await page.getByRole('button', { name: `Delete ${NAME}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete schedule' }).click();
    await page.waitForURL(/#\/s\/main\/schedules$/);
    await page.getByText('No schedules yet.').waitFor();
    expect(await schedules()).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, STEP_MS);

  it('re-plans the published plan on data dropped in the folder the page names, when asked to run now', async () => {
    await until('d-asis has a result to publish', async () => (await apiGet<Scenario>(api(`/sessions/main/scenarios/${scenarioId}`))).body.status === 'COMPLETE', { within: 120_000, every: 250 });
    await post(`/sessions/main/scenarios/${scenarioId}/publish`, { note: 'the plan to re-plan' });
    await page.goto(ui('/s/main/schedules'));
    await page.getByLabel('Name', { exact: true }).fill('nightly re-plan');
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Amsterdam');
    await expect.poll(() => page.getByTestId('next-ticks').locator('time').count()).toBe(5);
    expect(await page.getByTestId('next-ticks').innerText()).toMatch(/05:00/);
    await page.getByLabel('Load the files dropped for', { exact: true }).selectOption('sample');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const item = page.getByTestId('schedule-item').filter({ hasText: 'nightly re-plan' });
    await item.waitFor();
    expect(await item.innerText()).toContain('every weekday at 05:00 (Europe/Amsterdam)');
    // The folder the page names is the server's; a complete file is written beside it and renamed in.
    const folder = await item.getByTestId('drop-folder').innerText();
    expect(folder).toBe(join(db.dir, 'drops', 'main', 'sample'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'sku_data.csv.part'), readFileSync(`${SAMPLE}sku_data.csv`));
    renameSync(join(folder, 'sku_data.csv.part'), join(folder, 'sku_data.csv'));
    await page.getByRole('button', { name: 'Run nightly re-plan now' }).click();
    await item.getByRole('status').waitFor();
    await item.getByRole('link', { name: 'nightly re-plan' }).click();
    // Waits for the tick to end either way, so a failed tick fails here with its reason in words.
    const row = page.locator('[data-testid=tick-row]:is([data-status=done], [data-status=failed])').first();
    await row.waitFor({ timeout: 120_000 });
    const text = await row.innerText();
    expect(await row.getAttribute('data-status'), text).toBe('done');
    expect(text).toContain('(run now)');
    expect(text).toContain('loaded sku_data.csv into sample');
    // The new version of the dataset the re-plan ran on.
    expect(await row.getByRole('cell').nth(4).innerText()).toMatch(/^\d+$/);
    // The successor the re-plan made, linked; it is not the plan itself.
    const successor = row.getByTestId('tick-scenario');
    expect(await successor.count()).toBe(1);
    expect(await successor.getAttribute('href')).not.toContain(scenarioId);
    await inspect('replan');
  }, STEP_MS);
});
