import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import type { CompareResult, Scenario } from '../src/api/types.ts';
import { apiGet } from './support/api.ts';
import { inspectPage } from './support/inspect.ts';
import { launchChromium } from './support/browser.ts';
import { collectCspViolations } from './support/csp.ts';
import { RESULTS, SAMPLE, SAMPLE_FILES, PREFIX } from './support/paths.ts';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const ALGORITHMS = [
  { tag: 'e2e-asis', algorithm: 'As-Is Slotting' },
  { tag: 'e2e-greedy', algorithm: 'Greedy Slotting' },
  { tag: 'e2e-annealing', algorithm: 'Simulated Annealing Slotting' },
] as const;

describe.each(DIALECTS)('dashboard end to end (%s)', (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  /** What the server's Content-Security-Policy blocked on any page of the walk (none may be). */
  const cspViolations: string[] = [];
  const api = (path: string) => `${server.url}${PREFIX}${path}`;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase(dialect);
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORTS[0], colorScheme: 'light', acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
    collectCspViolations(page, cspViolations);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await db?.drop();
  });

  /** Screenshots, axe (no violation of any impact) and no sideways scrolling, at desktop and phone width in both themes. */
  const inspect = (name: string) => inspectPage(page, name, { dialect, viewports: VIEWPORTS, shot: (width, theme) => `${RESULTS}${dialect}-${name}-${width}-${theme}.png` });

  it('uploads the example files by drag and drop and shows the ETL report and a preview', async () => {
    await page.goto(`${server.url}${PREFIX}/ui/#/s/main/data`);
    await page.locator('#dataset-name').fill('sample');
    const files = SAMPLE_FILES.map((name) => ({ name, text: readFileSync(`${SAMPLE}${name}`, 'utf8') }));
    const transfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
      return dt;
    }, files);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByRole('list', { name: 'Chosen files' }).locator('li').count()).toBe(2);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('etl-report').waitFor();
    expect(await page.getByTestId('etl-report').innerText()).toContain('loaded');
    expect(await page.title()).toBe('Data · main · Scenarist');
    // The preview of the new dataset: its first table with every row counted.
    await page.getByTestId('row-count').waitFor();
    expect(await page.getByTestId('row-count').innerText()).toMatch(/^\d[\d,]* rows × \d+ columns$/);
    expect(await page.locator('.grid-viewport tbody tr').count()).toBeGreaterThan(1);
    await inspect('data');
  });

  it('creates a scenario of each example algorithm through the form, and shows server errors at the field', async () => {
    await page.getByRole('link', { name: 'Scenarios' }).click();
    await page.locator('#scenario-dataset option[value="sample"]').waitFor({ state: 'attached' });
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    // A value out of the parameter's bounds: the form names the bound at the field, nothing is created.
    await page.locator('#scenario-algo').selectOption('Simulated Annealing Slotting');
    await page.locator('#algo-iterations').waitFor();
    await page.locator('#scenario-tag').fill('e2e-refused');
    await page.locator('#scenario-dataset').selectOption('sample');
    await page.locator('#algo-iterations').fill('0');
    await page.getByRole('button', { name: 'Create scenario' }).click();
    await page.locator('#algo-iterations-error').waitFor();
    expect(await page.locator('#algo-iterations-error').innerText()).toMatch(/at least 1/);
    expect((await apiGet<Scenario[]>(api('/sessions/main/scenarios'))).body).toHaveLength(0);

    // An external algorithm is offered like any other: the Python program with its description and the
    // fields of its declared parameters, in their order.
    await page.locator('#scenario-algo').selectOption('Local Search (Python)');
    await expect.poll(() => page.locator('#scenario-algo-hint').innerText()).toMatch(/^A Python program/);
    await expect
      .poll(() => page.locator('input[id^="algo-"], select[id^="algo-"]').evaluateAll((fields) => fields.map((f) => f.id)))
      .toEqual(['algo-depot_x', 'algo-depot_y', 'algo-respect_zones', 'algo-iterations', 'algo-churn_weight']);
    expect(await page.locator('#algo-iterations').inputValue()).toBe('20000');

    for (const { tag, algorithm } of ALGORITHMS) {
      await page.locator('#scenario-algo').selectOption(algorithm);
      await page.locator('#scenario-dataset').selectOption('sample');
      if (algorithm.startsWith('Simulated')) await page.locator('#algo-iterations').fill('60000');
      await page.locator('#scenario-tag').fill(tag);
      await page.getByRole('button', { name: 'Create scenario' }).click();
      await page.locator(`[data-testid=scenario-card][data-tag="${tag}"]`).waitFor();
    }
    // Progress to COMPLETE arrives by itself (events, or polling on a server without them): no reload.
    await page.waitForFunction(
      (n) => [...document.querySelectorAll<HTMLElement>('[data-testid=scenario-card]')].filter((c) => c.dataset.status === 'COMPLETE').length === n,
      ALGORITHMS.length,
      { timeout: 120_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    const stored = (await apiGet<Scenario[]>(api('/sessions/main/scenarios'))).body;
    expect(stored.map((s) => [s.tag, s.status])).toEqual(ALGORITHMS.map((a) => [a.tag, 'COMPLETE']));
    expect(stored.find((s) => s.tag === 'e2e-annealing')!.algorithm.parameters.find((p) => p.name === 'iterations')!.value).toBe(60000);
    // A KPI value with its unit is one piece on a card: one line box, never broken mid-number.
    await page.setViewportSize({ width: 1440, height: 900 });
    const boxes = await page
      .getByTestId('card-kpi-value')
      .evaluateAll((values) => values.map((v) => ({ text: v.textContent, lines: new Set([...v.getClientRects()].map((r) => Math.round(r.top))).size })));
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes.filter((b) => b.lines !== 1)).toEqual([]);
    await page.setViewportSize(VIEWPORTS[0]);
    await inspect('scenarios');
  });

  it('asks before a card resets a complete result, and resets nothing when cancelled', async () => {
    const card = page.locator('[data-testid=scenario-card][data-tag="e2e-asis"]');
    await card.getByRole('button', { name: 'Reset e2e-asis' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset scenario e2e-asis?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await card.getAttribute('data-status')).toBe('COMPLETE');
  });

  it("opens a run's logs, or drops the Logs button on a server without the logs route", async () => {
    const card = page.locator('[data-testid=scenario-card][data-tag="e2e-greedy"]');
    const document = await apiGet<{ paths: Record<string, unknown> }>(`${server.url}/openapi.json`);
    // The document's paths are relative to the API prefix.
    const served = '/sessions/{sid}/scenarios/{id}/logs' in document.body.paths;
    await card.getByRole('button', { name: 'Logs of e2e-greedy' }).click();
    if (served) {
      await card.getByTestId('logs').waitFor();
      await inspect('scenario-logs');
    } else {
      await card.getByRole('button', { name: 'Logs of e2e-greedy' }).waitFor({ state: 'detached' });
      expect(await card.getByTestId('logs').count()).toBe(0);
    }
  });

  it('compares two scenarios and shows the deltas the API computes', async () => {
    const scenarios = (await apiGet<Scenario[]>(api('/sessions/main/scenarios'))).body;
    const [asis, annealing] = ['e2e-asis', 'e2e-annealing'].map((t) => scenarios.find((s) => s.tag === t)!);
    await page.getByRole('link', { name: 'Compare' }).click();
    await page.locator('label.check', { hasText: 'e2e-asis' }).locator('input').check();
    await page.locator('label.check', { hasText: 'e2e-annealing' }).locator('input').check();
    await page.getByTestId('kpi').first().waitFor();

    const shown = await page.getByTestId('kpi-value').evaluateAll((cards) =>
      cards.flatMap((card) => {
        const delta = card.querySelector<HTMLElement>('[data-testid=delta]');
        const kpi = card.closest<HTMLElement>('[data-testid=kpi]')!.dataset.kpi!;
        return delta ? [{ kpi, scenario: card.dataset.scenario!, delta: Number(delta.dataset.delta) }] : [];
      }),
    );
    const compared = await apiGet<CompareResult>(api(`/sessions/main/compare?ids=${asis!.id},${annealing!.id}&baseline=${asis!.id}`));
    const expected =
      compared.status === 200
        ? compared.body.kpis.map((k) => ({ kpi: k.name, scenario: 'e2e-annealing', delta: k.values.find((v) => v.scenario_id === annealing!.id)!.delta }))
        : // A server without the compare route: the API's own KPI values, subtracted here.
          Object.keys(asis!.kpis).map((name) => ({ kpi: name, scenario: 'e2e-annealing', delta: annealing!.kpis[name]!.value! - asis!.kpis[name]!.value! }));
    expect(shown).toEqual(expected);
    expect(shown.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid=kpi] [data-testid=chart] svg').count()).toBe(shown.length);
    expect(await page.locator('tr[data-differs="true"]').count()).toBeGreaterThan(0);
    // Parameters by their declared labels, never their names (`cooling_rate`, `data_params.category`).
    await expect.poll(() => page.locator('th[scope=row][title="cooling_rate"]').innerText()).toMatch(/^Cooling rate\b/);
    const rowHeads = await page.locator('th[scope=row][title]').allInnerTexts();
    expect(rowHeads.filter((t) => /[_.]/.test(t))).toEqual([]);
    // 0.995, as it was set, not rounded to 1.
    expect(await page.locator('th[scope=row][title="cooling_rate"] ~ td').allInnerTexts()).toContain('0.995');
    expect(await page.title()).toBe('Compare · main · Scenarist');
    await inspect('compare');
  });

  it('shows every completed scenario × KPI in the overview and exports it as CSV', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    const table = page.getByTestId('overview-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(ALGORITHMS.length);
    await table.getByRole('button', { name: /Travel Distance/ }).click();
    expect(await table.locator('th:not([aria-sort="none"])').count()).toBe(1);
    await page.locator('#overview-filter').fill('greedy');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path()), 'utf8').trim().split('\r\n');
    // Named after the session and the day; KPIs, then the parameters of each row.
    expect(download.suggestedFilename()).toMatch(/^main-scenarios-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv[0]).toMatch(/^Scenario,Algorithm,Dataset,Finished,.*Travel Distance \(m\).*,algo_params\./);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(/^e2e-greedy,Greedy Slotting,sample,/);
    // Numbers without float noise such as 389047.24200000014: at most 15 significant digits.
    const numbers = csv[1]!.split(',').filter((field) => /^-?\d+\.\d+$/.test(field));
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(n.replace(/^-?0*|\./g, '').length).toBeLessThanOrEqual(15);
    await page.locator('#overview-filter').fill('');
    await inspect('overview');
  });

  it('creates, renames, copies, switches to and deletes (after confirming) a session', async () => {
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.locator('#session-name').fill('e2e-other');
    await page.getByRole('button', { name: 'Create session' }).click();
    // A new session opens at its home, which asks for its data.
    await page.waitForURL(/#\/s\/[0-9a-f-]+$/);
    await page.locator('[data-step="upload"]').waitFor();
    await expect.poll(() => page.title()).toBe('Home · e2e-other · Scenarist');
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('button', { name: 'Rename e2e-other' }).click();
    await page.locator('#prompt-input').fill('e2e-renamed');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByRole('button', { name: 'Copy e2e-renamed' }).click();
    await page.locator('#prompt-input').fill('e2e-copy');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('link', { name: 'e2e-copy' }).waitFor();
    await page.getByRole('button', { name: 'Delete e2e-renamed' }).click();
    await page.getByRole('button', { name: 'Delete session' }).click();
    await page.getByRole('button', { name: 'Delete e2e-renamed' }).waitFor({ state: 'detached' });
    const names = (await apiGet<{ sessions: { display_name: string }[] }>(api('/sessions'))).body.sessions.map((s) => s.display_name);
    expect(names.sort()).toEqual(['e2e-copy', 'main']);
    await inspect('sessions');
    // Switching: the session picker takes the app to the other session's home, which (empty) asks for data.
    await page.locator('#session-switch').selectOption({ label: 'e2e-copy' });
    await page.waitForURL(/#\/s\/[0-9a-f-]+$/);
    await page.locator('[data-step="upload"]').waitFor();
  });

  it('is usable from the keyboard alone (and at the root mount)', async () => {
    await page.goto(`${server.url}/ui/#/`);
    await page.locator('#session-name').waitFor();
    const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent ?? '' }));
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('content');
    // Tab from the top of the content to the name field, type, Enter submits.
    for (let i = 0; i < 10 && (await focused()).id !== 'session-name'; i++) await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('session-name');
    await page.keyboard.type('e2e-keys');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/s\/[0-9a-f-]+$/);
    await page.getByRole('link', { name: 'Sessions' }).click();
    const remove = page.getByRole('button', { name: 'Delete e2e-keys' });
    await remove.waitFor();
    // A confirmation opens on Enter and Escape dismisses it, focus back where it was; nothing deleted.
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete session' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Delete session' }).waitFor({ state: 'hidden' });
    expect(await remove.evaluate((el) => el === document.activeElement)).toBe(true);
    const names = (await apiGet<{ sessions: { display_name: string }[] }>(api('/sessions'))).body.sessions.map((x) => x.display_name);
    expect(names).toContain('e2e-keys');
  });

  it('ran every page above under the server Content-Security-Policy without a violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
