import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { allViolations } from './axe.ts';

export type Theme = 'light' | 'dark';

export interface Viewport {
  readonly width: number;
  readonly height: number;
}

export interface InspectOptions {
  /** The widths to look at; the page is left at the first. */
  readonly viewports: readonly Viewport[];
  /** Where the full-page screenshot of one width and theme is written. */
  readonly shot: (width: number, theme: Theme) => string;
  /** Waits for what redraws after a theme or size change (charts). */
  readonly settle?: () => Promise<void>;
}

/** Switches the dashboard's theme with its own button, and waits until the page shows it. */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  if ((await toggle.getAttribute('aria-pressed')) !== String(theme === 'dark')) await toggle.click();
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

/**
 * Looks at the page as it is now, in both themes at every width: a full-page screenshot, no sideways
 * scrolling, and no axe violation of any impact. Leaves the page at the first width, light theme.
 */
export async function inspectPage(page: Page, name: string, { viewports, shot, settle }: InspectOptions): Promise<void> {
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
