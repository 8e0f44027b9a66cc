import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { launchChromium, type Browser } from './support/browser.ts';

// A server that requires tokens: the dashboard asks for one, then sends it in a header (the event stream too).
describe('dashboard against a server that requires a token', () => {
  let server: ServerProcess;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    server = await startServer({ args: ['--auth', 'token', '--log-level', 'warn'] });
    const created = await runCli(['token', 'create', '--scope', 'admin', '--data-dir', server.dataDir]);
    expect(created.code, created.output).toBe(0);
    token = /^sct_[A-Za-z0-9_-]+$/m.exec(created.output)![0];
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('asks for the token on 401, then loads the pages with it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const seen: { url: string; auth: string | undefined }[] = [];
    page.on('request', (r) => seen.push({ url: r.url(), auth: r.headers().authorization }));
    await page.goto(`${server.url}/ui/#/s/main/scenarios`);
    const dialog = page.getByRole('dialog', { name: 'API token' });
    await dialog.waitFor();
    await dialog.getByLabel('Token').fill(token);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('#scenario-dataset option[value="example"]').waitFor({ state: 'attached' });
    const apiCalls = seen.filter((r) => r.url.includes('/api/v1/sessions') && !r.url.includes('/events'));
    expect(apiCalls.at(-1)!.auth).toBe(`Bearer ${token}`);
    // The event stream (the typed client's watchEvents, over fetch) opens with the header: no token in a URL.
    await page.locator('[data-testid=live-mode][data-mode=live]').waitFor();
    const streams = seen.filter((r) => r.url.includes('/events'));
    expect(streams.at(-1)!.auth).toBe(`Bearer ${token}`);
    expect(seen.filter((r) => r.url.includes('access_token'))).toEqual([]);
    // The stored token survives a reload: no second prompt.
    await page.reload();
    await page.locator('#scenario-dataset option[value="example"]').waitFor({ state: 'attached' });
    expect(await dialog.isVisible()).toBe(false);
    await context.close();
  });
});
