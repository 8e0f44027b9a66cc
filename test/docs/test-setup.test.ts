import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/ensure-chromium.js';

/**
 * `npm ci && npm test` on a fresh machine (issue #41): the one thing the tests need beyond npm is
 * Debian's Chromium, which the test command installs when it can and otherwise refuses to start without,
 * saying how to get it, instead of failing every browser test later.
 */
describe("the test command's browser", () => {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-chromium-'));
  const present = join(dir, 'chromium');
  writeFileSync(present, '#!/bin/sh\n');
  chmodSync(present, 0o755);
  const missing = join(dir, 'no-chromium');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a Chromium that is there, at the usual place or where SCENARIST_CHROMIUM says', () => {
    expect(() => ensureChromium({ path: present, named: '' })).not.toThrow();
    expect(() => ensureChromium({ path: missing, named: present })).not.toThrow();
  });

  it('stops at once, saying how to install it, when it is missing and this run may not install it', () => {
    const refused = () => ensureChromium({ path: missing, named: '', root: false });
    expect(refused).toThrow(`The dashboard's browser tests need Debian's Chromium at ${missing}, and `);
    // Not root here; a machine without apt-get is refused for that, before (same advice).
    expect(refused).toThrow(/(installing it takes root|no apt-get to install it with).*Install it once as root \(apt-get update && apt-get install -y chromium\)/);
  });

  it('refuses a SCENARIST_CHROMIUM that names no program', () => {
    expect(() => ensureChromium({ path: present, named: missing })).toThrow(`SCENARIST_CHROMIUM names ${missing}, which is not an executable file.`);
  });
});
