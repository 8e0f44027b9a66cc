import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Every accessibility violation axe finds, whatever its impact (the dashboard's bar: none at all). */
export async function allViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    // Only violations are asserted: every other result type is cut to one node, which spares axe
    // the selector of every passing node.
    .options({ resultTypes: ['violations'] })
    // One axe.run in the page, as the dashboard has no cross-origin frames. The default opens a
    // blank page per check to gather the frames' partial results: 1.1-1.8 s a check against 0.5 s.
    .setLegacyMode()
    .analyze();
  return results.violations.map((v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
