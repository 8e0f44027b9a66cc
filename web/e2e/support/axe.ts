import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Every accessibility violation axe finds, whatever its impact (the dashboard's bar: none at all). */
export async function allViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
