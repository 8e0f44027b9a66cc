import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { overlappingPairs } from './support/overlap.ts';
import { inspectPage } from './support/inspect.ts';
import { launchChromium } from './support/browser.ts';
import { RESULTS, SAMPLE, SAMPLE_FILES, PREFIX } from './support/paths.ts';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
/** Per step: real runs, screenshots and axe on a busy shared machine. */
const STEP_MS = 600_000;

/**
 * An experiment through the dashboard: create it from the Experiments page (the live count), run it
 * to completion, see its charts and table, open a scenario from it. The new pages pass axe and do
 * not scroll sideways at 390 px (screenshots in web/test-results/).
 */
describe.each(DIALECTS)('an experiment in the dashboard (%s)', (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const ui = (hash: string) => `${server.url}${PREFIX}/ui/#${hash}`;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase(dialect);
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    const form = new FormData();
    form.append('dataset_name', 'sample');
    for (const name of SAMPLE_FILES) form.append('files', new Blob([readFileSync(`${SAMPLE}${name}`)], { type: 'text/csv' }), name);
    const upload = await fetch(`${server.url}${PREFIX}/sessions/main/etl`, { method: 'POST', body: form });
    expect(upload.status).toBe(200);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await db?.drop();
  });

  /** Screenshots, axe (no violation of any impact) and no sideways scrolling, at 1280 and 390 px in both themes. */
  async function inspect(name: string): Promise<void> {
    await inspectPage(page, name, { dialect, viewports: VIEWPORTS, shot: (width, theme) => `${RESULTS}${dialect}-experiments-${name}-${width}-${theme}.png` });
    expect(pageErrors).toEqual([]);
  }

  it('creates an experiment with a live count, runs it to completion and shows its charts and table', async () => {
    await page.goto(ui('/s/main/experiments'));
    await page.locator('#experiment-algo option[value="Greedy Slotting"]').waitFor({ state: 'attached' });
    // Diagnostics (tagged so by the example domain) are not offered for a sweep.
    const offered = await page.locator('#experiment-algo option').allInnerTexts();
    expect(offered).toContain('Greedy Slotting');
    expect(offered).not.toContain('Instant');
    await page.locator('#experiment-algo').selectOption('Greedy Slotting');
    await page.locator('#experiment-name').fill('depot sweep');
    await page.getByRole('checkbox', { name: /^Vary Depot x/i }).check();
    // An empty From is refused at the field (it would otherwise reach the server as 0).
    await page.locator('#axis-depot_x-to').fill('30');
    expect(await page.locator('#axis-depot_x-error').innerText()).toBe('enter a number in From');
    expect(await page.getByRole('button', { name: 'Create experiment' }).isDisabled()).toBe(true);
    // The parameters not varied, and the data parameters, take fixed values.
    await page.getByTestId('fixed-algo-params').locator('#fixed-algo-depot_y').fill('5');
    await page.getByTestId('fixed-data-params').locator('#fixed-data-min_daily_picks').waitFor();
    await page.locator('#axis-depot_x-from').fill('0');
    await page.locator('#axis-depot_x-to').fill('30');
    await page.locator('#axis-depot_x-steps').fill('3');
    await page.locator('#experiment-repeats').fill('2');
    await expect.poll(() => page.getByTestId('scenario-count').innerText()).toMatch(/^6 scenarios/);
    // Over the limit, the count says why and creating is refused before asking the server.
    await page.locator('#axis-depot_x-steps').fill('6000');
    await page.getByTestId('count-problem').waitFor();
    expect(await page.getByTestId('count-problem').innerText()).toMatch(/max_experiment_size/);
    expect(await page.getByRole('button', { name: 'Create experiment' }).isDisabled()).toBe(true);
    await page.locator('#axis-depot_x-steps').fill('3');
    await inspect('form');

    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.waitForURL(/#\/s\/main\/experiments\/[^/?]+$/, { timeout: 60_000 });
    await page.locator('[data-testid=experiment-counts] [data-status=COMPLETE] strong').filter({ hasText: /^6$/ }).waitFor({ timeout: 300_000 });
    await page.getByText('All runs finished.').waitFor({ timeout: 60_000 });
    await page.getByTestId('small-multiples').locator('figure').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('result-row').count(), { timeout: 60_000 }).toBe(6);
    // The scatter draws one point per scenario (repeats of a deterministic run coincide) with tick values
    // on both axes, and scenarios at one place share one label.
    const scatter = page.getByTestId('front-scatter');
    await expect.poll(() => scatter.locator('path[aria-label^="depot sweep/"]').count(), { timeout: 60_000 }).toBe(6);
    for (const axis of await scatter.locator('[aria-roledescription=axis]').all()) expect(await axis.locator('.role-axis-label text').count()).toBeGreaterThan(1);
    const labels = scatter.locator('text[aria-label^="label: "]');
    expect(await labels.count()).toBeGreaterThan(0);
    expect(await overlappingPairs(labels)).toEqual([]);
    // The small multiples have tick values too.
    expect(await page.getByTestId('small-multiples').locator('.role-axis-label text').count()).toBeGreaterThan(4);
    expect(await page.getByTestId('results-table').innerText()).toMatch(/depot sweep\/depot_x=0 · rep 1/);
    expect(await page.title()).toBe('Experiment depot sweep · main · Scenarist');
    // The fixed value reached every scenario.
    const sweep = await (await fetch(`${server.url}${PREFIX}/sessions/main/scenarios?experiment=${page.url().split('/').pop()}&limit=10`)).json() as { items: { algorithm: { parameters: { name: string; value: unknown }[] } }[] };
    expect(sweep.items.map((s) => s.algorithm.parameters.find((p) => p.name === 'depot_y')?.value)).toEqual([5, 5, 5, 5, 5, 5]);
    // The results as files, from the API's export.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the results of depot sweep as CSV' }).click()]);
    const lines = readFileSync((await csv.path()), 'utf8').trim().split(/\r?\n/);
    // The download is for people: labelled columns with units, each scenario's repeat and seed.
    expect(lines[0]).toMatch(/^Scenario,Status,Repeat,Seed,Depot x,.*Travel Distance \(m\)/);
    expect(lines).toHaveLength(7);
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the results of depot sweep as XLSX' }).click()]);
    expect(readFileSync((await xlsx.path())).subarray(0, 2).toString()).toBe('PK');
    await inspect('results');
  }, STEP_MS);

  it('sorts the table, offers picked rows for comparison, and opens a scenario from a row', async () => {
    // The axis column is headed by its parameter's label, not its path.
    const header = page.getByTestId('results-table').getByRole('columnheader', { name: 'Depot x' });
    await header.getByRole('button').click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await page.getByRole('checkbox', { name: 'Pick depot sweep/depot_x=0 · rep 1' }).check();
    await page.getByRole('checkbox', { name: 'Pick depot sweep/depot_x=0 · rep 2' }).check();
    expect(await page.getByTestId('compare-picked').getAttribute('href')).toMatch(/^#\/s\/main\/compare\?ids=/);
    await page.getByTestId('result-row').getByRole('link', { name: 'depot sweep/depot_x=15 · rep 1' }).click();
    await page.waitForURL(/#\/s\/main\/scenarios\/[^/?]+$/, { timeout: 60_000 });
    await page.getByTestId('scenario-title').filter({ hasText: 'depot sweep/depot_x=15 · rep 1' }).waitFor({ timeout: 60_000 });
  }, STEP_MS);

  it('resets every scenario matching the filter from the scenarios page, after a confirm stating the count', async () => {
    await page.goto(ui('/s/main/scenarios?tag=depot%20sweep'));
    await expect.poll(() => page.locator('[data-testid=scenario-card][data-status=COMPLETE]').count(), { timeout: 60_000 }).toBe(6);
    await page.getByText('all 6 matching the filter').waitFor();
    // With nothing ticked, the bar offers no action on them all until that is chosen.
    await page.getByTestId('batch-hint').waitFor();
    expect(await page.getByTestId('batch-actions').getByRole('button', { name: 'Reset 6' }).count()).toBe(0);
    // The create form above the cards grows by its parameter fieldsets when they arrive, moving the
    // cards down. A press that straddles that move ends beside the checkbox and ticks nothing (seen
    // under CPU load). Tick once the form is whole: its Create button is enabled only then.
    await page.locator('button[type=submit]:enabled', { hasText: 'Create scenario' }).waitFor();
    await page.getByRole('checkbox', { name: 'Tick depot sweep/depot_x=0 · rep 1' }).check();
    await page.getByText('the 1 ticked').waitFor();
    await page.getByRole('radio', { name: /all 6 matching the filter/ }).check();
    await inspect('scenarios-batch');
    await page.getByTestId('batch-actions').getByRole('button', { name: 'Reset 6' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset 6 scenarios?' });
    await dialog.getByRole('button', { name: 'Reset 6 scenarios' }).click();
    await page.getByText('Reset: 6 changed, 0 skipped').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('[data-testid=scenario-card][data-status=CREATED]').count(), { timeout: 60_000 }).toBe(6);
    // A filter that matches nothing says so, and clears in one click.
    await page.locator('#tag-filter').fill('no such tag');
    await page.getByTestId('no-match').waitFor();
    await page.getByTestId('no-match').getByRole('button', { name: 'Clear the filter' }).click();
    await expect.poll(() => page.locator('[data-testid=scenario-card]').count()).toBe(6);
  }, STEP_MS);
});
