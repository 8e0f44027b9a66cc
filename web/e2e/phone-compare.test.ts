import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { until } from '../../test/support/until.ts';
import type { Scenario } from '../src/api/types.ts';
import { apiGet } from './support/api.ts';
import { launchChromium } from './support/browser.ts';
import { PREFIX, RESULTS, SAMPLE } from './support/paths.ts';

const PHONE = { width: 390, height: 844 } as const;
const ALGORITHMS = ['As-Is Slotting', 'Greedy Slotting', 'Simulated Annealing Slotting'] as const;

/**
 * Compare on a phone (issue 41, friction 7) and the theme button under a dark system (friction 8), in
 * Chromium at 390 px: every chart's legend lies inside its chart, and the KPI table that scrolls
 * sideways says so, shades the side with more, and scrolls from the keyboard. Looks alone: one dialect.
 */
describe('the compare page on a phone, and the theme button under a dark system', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const ids: string[] = [];
  const pageErrors: string[] = [];
  const api = (path: string) => `${server.url}${PREFIX}/sessions/main${path}`;
  const ui = (hash: string) => `${server.url}${PREFIX}/ui/#${hash}`;

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase('sqlite');
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    browser = await launchChromium();
    // The operating system in dark mode, as a planner's phone at night.
    context = await browser.newContext({ viewport: PHONE, colorScheme: 'dark' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const form = new FormData();
    form.append('dataset_name', 'sample');
    for (const file of ['sku_data.csv', 'warehouse_layout.csv']) form.append('files', new Blob([readFileSync(`${SAMPLE}${file}`, 'utf8')]), file);
    const loaded = (await (await fetch(api('/etl'), { method: 'POST', body: form })).json()) as { success: boolean };
    expect(loaded.success).toBe(true);
    for (const [i, algorithm] of ALGORITHMS.entries()) {
      const algoParams = algorithm.startsWith('Simulated') ? { iterations: 2000 } : {};
      const created = await post<Scenario>('/scenarios', { tag: `phone-${i + 1}`, dataset_key: 'sample', algo_name: algorithm, algo_params: algoParams });
      await post(`/scenarios/${created.id}/run`, {});
      ids.push(created.id);
    }
    await until('the scenarios to complete', async () => {
      const statuses = await Promise.all(ids.map(async (id) => (await apiGet<Scenario>(api(`/scenarios/${id}`))).body.status));
      return statuses.every((s) => s === 'COMPLETE');
    }, { within: 150_000, every: 250 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await db?.drop();
  });

  it('names the theme it switches to, whatever the system chose, and switches to it', async () => {
    await page.goto(ui('/s/main'));
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await page.getByRole('button', { name: /dark theme/i }).count()).toBe(0);
    await page.getByRole('button', { name: 'Use light theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  });

  it('keeps every chart legend inside its chart at 390 px', async () => {
    await page.goto(ui(`/s/main/compare?ids=${ids.join(',')}&baseline=${ids[0]}`));
    await page.getByTestId('kpis-together').waitFor();
    // Every chart drawn, the domain's comparison views (a legend of scenario tags) included.
    await page.locator('[data-testid=chart]').first().waitFor();
    await expect
      .poll(() => page.locator('[data-testid=chart]').evaluateAll((charts) => charts.length > 0 && charts.every((c) => c.getAttribute('data-rendered') === 'true')), { timeout: 60_000 })
      .toBe(true);
    const views = page.locator('section[aria-labelledby=compare-views-title]');
    await views.locator('[data-testid=chart][data-rendered=true] svg .role-legend').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${RESULTS}phone-compare-390-dark.png`, fullPage: true });
    await views.screenshot({ path: `${RESULTS}phone-compare-390-comparison-view.png` });
    const escapes = await page.evaluate(() => {
      const out: string[] = [];
      for (const legend of document.querySelectorAll<SVGGElement>('svg .role-legend')) {
        // The chart's box as shown: a chart wider than it scrolls inside it, so a legend past its edge is hidden.
        const chart = legend.closest('[data-testid=chart]')!.getBoundingClientRect();
        const box = legend.getBoundingClientRect();
        if (box.left < chart.left - 1 || box.right > chart.right + 1 || box.right > window.innerWidth) out.push(`${legend.textContent}: ${box.left}–${box.right} in ${chart.left}–${chart.right}`);
      }
      return out;
    });
    expect(await page.locator('svg .role-legend').count()).toBeGreaterThan(0);
    expect(escapes).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('marks the KPI table that scrolls sideways and scrolls it from the keyboard', async () => {
    const region = page.getByRole('region', { name: 'All KPIs together', exact: true });
    const sizes = await region.evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const hint = page.getByTestId('scroll-hint');
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.innerText()).toContain('scroll sideways');
    expect(await region.evaluate((box) => box.parentElement!.hasAttribute('data-more-right'))).toBe(true);
    // Reached with Tab, scrolled with the arrow keys.
    await region.evaluate((box) => box.scrollIntoView());
    expect(await region.getAttribute('tabindex')).toBe('0');
    await region.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
    await expect.poll(() => region.evaluate((box) => box.parentElement!.hasAttribute('data-more-left'))).toBe(true);
    await page.locator('section', { has: region }).screenshot({ path: `${RESULTS}phone-compare-390-kpis-together.png` });
  });
});
