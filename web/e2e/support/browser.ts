import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser), with the flags this sandboxed, offline machine needs. */
export const CHROMIUM_PATH = process.env.SCENARIST_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}
export type { Browser, Page } from 'playwright-core';
