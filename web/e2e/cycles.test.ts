import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { until } from '../../test/support/until.ts';
import type { Scenario } from '../src/api/types.ts';
import { apiGet } from './support/api.ts';
import { launchChromium } from './support/browser.ts';
import { collectCspViolations } from './support/csp.ts';
import { inspectPage } from './support/inspect.ts';
import { PREFIX, RESULTS, SAMPLE } from './support/paths.ts';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const STEP_MS = 180_000;
const WEEK49 = { sku: readFileSync(`${SAMPLE}sku_data.csv`, 'utf8'), layout: readFileSync(`${SAMPLE}warehouse_layout.csv`, 'utf8') };

/**
 * Week 50's master: week 49's with the pet SKUs picked three times as often (the rows of one category
 * changed, the rest as they were), so a re-planned greedy slotting moves some of them.
 */
function week50Skus(): string {
  const [header, ...rows] = WEEK49.sku.trim().split('\n');
  const columns = header!.split(';');
  const category = columns.indexOf('category');
  const picks = columns.indexOf('daily_picks');
  return [
    header,
    ...rows.map((row) => {
      const cells = row.split(';');
      if (cells[category] === 'pet') cells[picks] = (Number(cells[picks]) * 3).toFixed(2);
      return cells.join(';');
    }),
  ].join('\n');
}

/**
 * A planner's week-49-to-week-50 cycle in Chromium against the real server, without the docs (issue #42):
 * the plan and a what-if on week 49; she uploads week 50 under the same name from the Data page; the
 * plan card and the what-if say they were computed on week49 v1; she re-plans from the plan card and
 * sees the successor's churn, rebases the what-if from its card, reads week49's versions and what
 * changed between them, and compares the re-plan with the plan, result rows and all.
 */
describe.each(DIALECTS)('a planning cycle in the dashboard (%s)', (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const api = (path: string) => `${server.url}${PREFIX}/sessions/main${path}`;
  const ui = (hash: string) => `${server.url}${PREFIX}/ui/#${hash}`;
  let plan: Scenario;
  let whatIf: Scenario;

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }
  const scenarios = async () => (await apiGet<Scenario[]>(api('/scenarios'))).body;
  const completes = (id: string) => until(`scenario ${id} to complete`, async () => (await apiGet<Scenario>(api(`/scenarios/${id}`))).body.status === 'COMPLETE', { within: 120_000, every: 200 });

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase(dialect);
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    // Week 49: the master, the published plan on it, and a what-if branched from the plan.
    const form = new FormData();
    form.append('dataset_name', 'week49');
    form.append('files', new Blob([WEEK49.sku]), 'sku_data.csv');
    form.append('files', new Blob([WEEK49.layout]), 'warehouse_layout.csv');
    expect((await fetch(api('/etl'), { method: 'POST', body: form })).status).toBe(200);
    plan = await post<Scenario>('/scenarios', { tag: 'greedy', dataset_key: 'week49', algo_name: 'Greedy Slotting' });
    await post(`/scenarios/${plan.id}/run`, {});
    await completes(plan.id);
    await post(`/scenarios/${plan.id}/publish`, { note: 'week 49' });
    whatIf = await post<Scenario>(`/scenarios/${plan.id}/branch`, {
      tag: 'dairy push',
      edits: [{ table: 'sku_data', update: { where: { category: 'dairy' }, scale: { daily_picks: 1.5 } } }],
    });
    await post(`/scenarios/${whatIf.id}/run`, {});
    await completes(whatIf.id);
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

  const inspect = async (name: string) => {
    await inspectPage(page, name, { dialect, viewports: VIEWPORTS, shot: (width, theme) => `${RESULTS}${dialect}-cycles-${name}-${width}-${theme}.png` });
    expect(pageErrors).toEqual([]);
  };

  it('1. uploads week 50 under week49 from the Data page, and reads its versions and what changed', async () => {
    await page.goto(ui('/s/main/data'));
    await page.getByRole('button', { name: 'Preview week49' }).waitFor();
    await page.locator('#dataset-name').fill('week49');
    const files = [
      { name: 'sku_data.csv', data: [...Buffer.from(week50Skus())] },
      { name: 'warehouse_layout.csv', data: [...Buffer.from(WEEK49.layout)] },
    ];
    const transfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([new Uint8Array(f.data)], f.name));
      return dt;
    }, files);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Replace dataset?' });
    expect(await confirm.getByTestId('replace-message').innerText()).toContain('keeps the current one');
    await confirm.getByRole('button', { name: 'Replace dataset' }).click();
    await page.getByTestId('etl-report').waitFor();
    // The what-if's dataset says it was derived from the old week 49.
    await expect.poll(() => page.getByTestId('dataset-stale').first().innerText()).toContain('Derived from week49 v1; week49 is now v2.');

    await page.getByRole('button', { name: 'Versions of week49' }).click();
    const versions = page.getByTestId('dataset-versions');
    await expect.poll(() => versions.getByTestId('dataset-version').count()).toBe(2);
    expect(await versions.getByTestId('dataset-version').first().innerText()).toMatch(/v2\s*current/);
    await versions.getByRole('button', { name: 'Show differences' }).click();
    const changed = versions.getByTestId('version-tables');
    await changed.waitFor({ timeout: 30_000 });
    // The rows whose picks moved (a pet SKU with no picks stays at 0).
    const before = WEEK49.sku.trim().split('\n');
    const moved = week50Skus().split('\n').filter((row, i) => i > 0 && Number(row.split(';')[3]) !== Number(before[i]!.split(';')[3])).length;
    expect(moved).toBeGreaterThan(0);
    expect(await changed.innerText()).toContain(`sku_data: 0 rows added, 0 rows removed, ${moved} rows changed (rows matched by sku)`);
    await inspect('versions');
  }, STEP_MS);

  it('2. sees the plan marked stale on the home page, re-plans, and reads the successor’s churn', async () => {
    await page.goto(ui('/s/main'));
    const card = page.getByTestId('home-plan');
    expect(await card.getByTestId('stale-note').innerText()).toContain('Computed on week49 v1; week49 is now v2.');
    await card.getByRole('button', { name: 'Re-plan on the newest data' }).click();
    const successor = card.getByTestId('replan-successor');
    await successor.waitFor();
    await card.locator('[data-testid=replan-successor][data-status=COMPLETE]').waitFor({ timeout: 120_000 });
    const replan = (await scenarios()).find((s) => s.replans === plan.id)!;
    const churn = replan.plan_churn!;
    expect(churn.rows_changed).toBeGreaterThan(0);
    await expect.poll(() => card.getByTestId('replan-churn').innerText()).toContain(`Churn: ${churn.rows_changed} rows differ from the plan`);
    expect(await successor.innerText()).toContain(`Re-planned as ${replan.tag}`);
    await inspect('replan');
  }, STEP_MS);

  it('3. rebases the what-if from its stale card onto the new data', async () => {
    await page.goto(ui('/s/main/scenarios'));
    const card = page.locator(`[data-testid=scenario-card][data-tag="${whatIf.tag}"]`);
    expect(await card.getByTestId('stale-note').innerText()).toMatch(/derived from week49 v1; week49 is now v2\./);
    await card.getByRole('button', { name: `Rebase ${whatIf.tag} onto the new data` }).click();
    const dialog = page.getByRole('dialog', { name: 'Rebase onto the new data' });
    await dialog.getByRole('button', { name: 'Rebase', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => card.getByTestId('rebased-as').innerText()).toMatch(/^Rebased as dairy push @v2/);
    const successor = (await scenarios()).find((s) => s.rebased_from === whatIf.id)!;
    expect(successor.stale ?? null).toBeNull();
    // The rebased what-if runs (the dialog's default) on the new data.
    await completes(successor.id);
  }, STEP_MS);

  it('4. compares the re-plan with the plan: KPI deltas and, beside them, the result rows that moved', async () => {
    await page.goto(ui('/s/main'));
    await page.getByTestId('home-plan').getByRole('link', { name: 'Compare with the plan' }).click();
    const changes = page.getByTestId('scenario-result-changes');
    await changes.waitFor({ timeout: 30_000 });
    expect(await changes.getByTestId('result-tables').innerText()).toMatch(/assignments: \d+ of \d+ rows differ/);
    await page.getByTestId('kpi').first().waitFor();
    expect(pageErrors).toEqual([]);
  }, STEP_MS);
});
