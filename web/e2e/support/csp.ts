import type { Page, Response } from 'playwright-core';

/** Chromium's console line for a blocked script, style, image, request or eval. */
const VIOLATION = /Content Security Policy|unsafe-eval/i;

/**
 * Collects into `into` every Content-Security-Policy violation the page reports, whatever blocked it:
 * the dashboard is served with a strict policy (src/http/ui-headers.ts), and a part that needs more
 * than it allows (an inline script, an eval, a style or image from elsewhere) logs one here instead of
 * failing loudly.
 */
export function collectCspViolations(page: Page, into: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && VIOLATION.test(message.text())) into.push(message.text());
  });
}

/** The policy the dashboard's page arrived with, to check that the page under test ran under it. */
export async function documentPolicy(response: Response | null): Promise<{ csp: string | undefined; frame: string | undefined }> {
  const headers = (await response?.allHeaders()) ?? {};
  return { csp: headers['content-security-policy'], frame: headers['x-frame-options'] };
}
