import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/dialects.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import type { DatasetForm, Scenario } from '../src/api/types.ts';
import { apiGet } from './support/api.ts';
import { inspectPage } from './support/inspect.ts';
import { launchChromium } from './support/browser.ts';
import { RESULTS, SAMPLE, PREFIX } from './support/paths.ts';

/**
 * The planner's first hour, as a new user goes: open `/`, land on the sessions, open a new session's home,
 * download a template, fill it, upload it, create a scenario from the home's button, run it, compare.
 * Every page is looked at in light and dark, at 1440 and 390 px: no sideways scroll, no axe violation of
 * any impact, and a screenshot under web/test-results/.
 */

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** Rows for a template, from the example files (the SKU sample is `;`-separated, the template is not). */
function filled(group: string, template: string): string {
  const lines = readFileSync(`${SAMPLE}${group}.csv`, 'utf8').trim().split(/\r?\n/);
  const separator = lines[0]!.includes(';') ? ';' : ',';
  const header = lines[0]!.split(separator);
  expect(template.trim().split(',')).toEqual(header);
  return template + lines.slice(1, 41).map((l) => l.split(separator).map(csvField).join(',')).join('\r\n') + '\r\n';
}

describe.each(DIALECTS)("the planner's first hour (%s)", (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const api = (path: string) => `${server.url}${PREFIX}${path}`;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    db = await createTestDatabase(dialect);
    server = await startServer({ dataDir: db.dir, args: ['--database-url', db.url, '--log-level', 'warn', '--workers', '1'] });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORTS[0], colorScheme: 'light', acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
    await fetch(api('/sessions'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ display_name: 'planner' }) });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await db?.drop();
  });

  /** Screenshots, axe (no violation of any impact) and no sideways scrolling, at both widths in both themes. */
  const inspect = (name: string) => inspectPage(page, name, { dialect, viewports: VIEWPORTS, shot: (width, theme) => `${RESULTS}${dialect}-home-${name}-${width}-${theme}.png` });

  async function drop(files: { name: string; data: number[] }[]): Promise<void> {
    const transfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([new Uint8Array(f.data)], f.name));
      return dt;
    }, files);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
  }

  async function upload(name: string, files: { name: string; data: Buffer }[]): Promise<string> {
    await page.goto(`${server.url}${PREFIX}/ui/#/s/planner/data`);
    await page.locator('#dataset-name').fill(name);
    // Until the files are given too, the disabled Upload says what it waits for.
    expect(await page.getByTestId('upload-hint').innerText()).toBe('To upload, choose or drop the files.');
    await drop(files.map((f) => ({ name: f.name, data: [...f.data] })));
    await expect.poll(() => page.getByRole('list', { name: 'Chosen files' }).locator('li').count()).toBe(files.length);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('etl-report').waitFor();
    return page.getByTestId('etl-report').innerText();
  }

  it('opens / and lands on the sessions, then a new session’s home names the files to upload', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/');
    expect(await page.getByRole('button', { name: /^Token/ }).count()).toBe(0);
    await inspect('sessions');
    await page.getByRole('link', { name: 'planner' }).click();
    await page.locator('[data-step="upload"]').waitFor();
    // The groups arrive with the schemas query, after the step itself is drawn.
    await expect.poll(() => page.getByTestId('schema-group').count()).toBe(2);
    // The domain's descriptions are markdown: rendered, no backtick left.
    expect(await page.getByTestId('next-step').innerText()).not.toContain('`');
    expect(await page.getByTestId('next-step').locator('td code').count()).toBeGreaterThan(0);
    expect(await page.title()).toBe('Home · planner · Scenarist');
    await inspect('home-upload');
  });

  it('downloads a template, fills it, uploads it and is offered to create a scenario on it', async () => {
    const files: { name: string; data: Buffer }[] = [];
    for (const group of ['sku_data', 'warehouse_layout']) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download the CSV template of ${group}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${group}.csv`);
      files.push({ name: `${group}.csv`, data: Buffer.from(filled(group, readFileSync((await download.path()), 'utf8'))) });
    }
    expect(await upload('filled', files)).toContain('loaded');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Create a scenario on filled' }).click();
    await page.getByRole('heading', { name: 'Scenarios', exact: true }).waitFor();
    expect(await page.locator('#scenario-dataset').inputValue()).toBe('filled');
  });

  it('runs two scenarios from the form and compares them from the home page', async () => {
    for (const [tag, algorithm] of [
      ['first-greedy', 'Greedy Slotting'],
      ['first-asis', 'As-Is Slotting'],
    ] as const) {
      await page.locator('#scenario-algo').selectOption(algorithm);
      await page.locator('#scenario-tag').fill(tag);
      await page.getByRole('button', { name: 'Create scenario' }).click();
      await page.locator(`[data-testid=scenario-card][data-tag="${tag}"]`).waitFor();
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=scenario-card][data-status=COMPLETE]').length === 2, null, { timeout: 120_000 });
    await inspect('scenarios');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Compare 2 finished scenarios' }).click();
    await page.getByTestId('kpi').first().waitFor();
    await page.locator('[data-testid=kpi] [data-testid=chart][data-rendered=true] svg').first().waitFor();
    await inspect('compare');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.locator('[data-step="compare"]').waitFor();
    await inspect('home-compare');
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('overview-table').waitFor();
    await inspect('overview');
  });

  it.each(['CSV', 'XLSX'] as const)('uploads its own %s download again unchanged (fix 10)', async (format) => {
    await page.goto(`${server.url}${PREFIX}/ui/#/s/planner/data`);
    const downloads: Download[] = [];
    const collect = (d: Download) => downloads.push(d);
    page.on('download', collect);
    await page.getByRole('button', { name: `Download filled as ${format}` }).click();
    await expect.poll(() => downloads.length, { timeout: 30_000 }).toBe(2);
    page.off('download', collect);
    const files = await Promise.all(downloads.map(async (d) => ({ name: d.suggestedFilename(), data: readFileSync((await d.path())) })));
    expect(files.map((f) => f.name).sort()).toEqual([`sku_data.${format.toLowerCase()}`, `warehouse_layout.${format.toLowerCase()}`]);
    const again = `again-${format.toLowerCase()}`;
    expect(await upload(again, files)).toContain('loaded');
    const before = (await apiGet<DatasetForm>(api('/sessions/planner/data/filled'))).body;
    const after = (await apiGet<DatasetForm>(api(`/sessions/planner/data/${again}`))).body;
    expect(after.tables).toEqual(before.tables);
    await inspect(`data-${format.toLowerCase()}`);
  });

  it('shows an unreadable file beside the row errors of the other (fix 12)', async () => {
    const bad = readFileSync(`${SAMPLE}warehouse_layout.csv`, 'utf8').replace(/\n([^,\n]*),/, '\n,');
    const report = await upload('broken', [
      { name: 'sku_data.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x01]) },
      { name: 'warehouse_layout.csv', data: Buffer.from(bad) },
    ]);
    expect(report).toContain('sku_data.csv');
    expect(report).toContain('warehouse_layout.csv');
    // The faulty row also by its line in the file (the header is line 1).
    await expect.poll(() => page.getByTestId('etl-row').filter({ hasText: 'line' }).first().innerText()).toBe('1 (line 2)');
    expect((await apiGet<Scenario[]>(api('/sessions/planner/data/broken'))).status).toBe(404);
  });

  it('asks before an upload replaces a dataset that scenarios use, and a file dropped again replaces its pick', async () => {
    await page.goto(`${server.url}${PREFIX}/ui/#/s/planner/data`);
    // A fresh page: the failed upload before left its files chosen.
    await page.reload();
    await page.locator('#dataset-name').fill('filled');
    const sku = [...readFileSync(`${SAMPLE}sku_data.csv`)];
    await drop([{ name: 'sku_data.csv', data: sku }]);
    await drop([{ name: 'sku_data.csv', data: sku }]);
    await expect.poll(() => page.getByRole('list', { name: 'Chosen files' }).locator('li').count()).toBe(1);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace dataset?' });
    await dialog.waitFor();
    // first-greedy and first-asis run on it.
    expect(await dialog.getByTestId('replace-message').innerText()).toMatch(/2 scenarios use it/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('etl-report').count()).toBe(0);
  });

  it('shows one "not found" page for an unknown session, with a way back (fix 11)', async () => {
    await page.goto(`${server.url}${PREFIX}/ui/#/s/no-such-session/scenarios`);
    await page.getByTestId('not-found').waitFor();
    await inspect('not-found');
    await page.getByRole('link', { name: 'Back to the sessions' }).click();
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
  });
});
