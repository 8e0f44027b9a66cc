import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allViolations } from './support/axe.ts';
import { launchChromium, type Browser } from './support/browser.ts';

// The accessibility bar of every page test rests on this check: it must find what it is there to find.
describe('the accessibility check used on every dashboard page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reports a page with an unlabelled input, an image without text and faint text, and passes its fixed twin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const body = (fixed: boolean) => `<!doctype html><html lang="en"><head><title>check</title></head><body><main><h1>Check</h1>
      ${fixed ? '<label>Name <input></label>' : '<input>'}
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" ${fixed ? 'alt="a dot"' : ''}>
      <p style="color:${fixed ? '#222' : '#ccc'};background:#fff">Some text</p></main></body></html>`;
    await page.setContent(body(false));
    const found = await allViolations(page);
    expect(found.map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['label', 'image-alt', 'color-contrast']));
    await page.setContent(body(true));
    expect(await allViolations(page)).toEqual([]);
    await context.close();
  });
});
