import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DIALECTS } from '../../../test/support/dialects.ts';
import { allViolations } from './axe.ts';

export type Theme = 'light' | 'dark';

export interface Viewport {
  readonly width: number;
  readonly height: number;
}

export interface InspectOptions {
  /** The store the page's server runs on: the looks are checked on the first of the run's dialects only. */
  readonly dialect: (typeof DIALECTS)[number];
  /** The widths to look at; the page is left at the first. */
  readonly viewports: readonly Viewport[];
  /** Where the full-page screenshot of one width and theme is written. */
  readonly shot: (width: number, theme: Theme) => string;
  /** Waits for what redraws after a theme or size change (charts). */
  readonly settle?: () => Promise<void>;
}

/**
 * Switches the dashboard's theme with its own button, from the keyboard, and waits until the page
 * shows it. A mouse click waits for the button to be stable over two animation frames: in one CI run
 * with both suites on two cores it waited 30 s at a phone's width and gave up, though the button was
 * there and enabled.
 */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  // The header's button names the theme it switches to ("Use dark theme" while the light one shows).
  await page.waitForFunction(() => document.documentElement.dataset.theme !== undefined);
  if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
    const toggle = page.getByRole('button', { name: `Use ${theme} theme` });
    await toggle.focus();
    await page.keyboard.press('Enter');
  }
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

/**
 * Looks at the page as it is now, in both themes at every width: a full-page screenshot, no sideways
 * scrolling, and no axe violation of any impact. Leaves the page at the first width, light theme.
 *
 * Only on one dialect: the dashboard draws the same answers whichever store the server uses, and the
 * flows, which do depend on it, run on both. The looks were most of a flow's time (axe above all):
 * checked on both dialects, the same pages were screenshotted and analysed twice.
 */
export async function inspectPage(page: Page, name: string, { dialect, viewports, shot, settle }: InspectOptions): Promise<void> {
  if (dialect !== DIALECTS[0]) {
    // What follows may expect what a look waits for (charts drawn).
    await settle?.();
    return;
  }
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      await settle?.();
      await page.screenshot({ path: shot(viewport.width, theme), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0);
      expect(await allViolations(page), `${name} (${theme}, ${viewport.width}px)`).toEqual([]);
    }
  }
  await page.setViewportSize(viewports[0]!);
  await setTheme(page, 'light');
}

/** Every chart on the page drawn (again, after a theme change) or failed visibly. */
export async function chartsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('[data-testid=chart]')].every((c) => c.dataset.rendered === 'true'), undefined, {
    timeout: 30_000,
  });
}
