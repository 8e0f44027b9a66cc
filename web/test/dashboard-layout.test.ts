// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * How the dashboard's folders depend on each other, read from its sources: every API call goes through
 * the typed client (`api/client.ts`), and `pages/` holds pages and their parts, never a helper that
 * another folder or another page reaches into.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** Each file's relative imports, resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((spec) => relative(SRC, join(SRC, file, '..', spec)).split('\\').join('/'));
}

/** The files that mount pages: the router and the session's layout. */
const MOUNTS_PAGES = new Set(['router.tsx', 'SessionLayout.tsx']);

describe('the dashboard layout', () => {
  it('calls the API only through the typed client', () => {
    const fetching = sources().filter((file) => file !== 'api/client.ts' && /\bfetch\(/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(fetching).toEqual([]);
  });

  it('imports nothing from pages/ outside the files that mount the pages', () => {
    const reaching = sources()
      .filter((file) => !file.startsWith('pages/') && !MOUNTS_PAGES.has(file))
      .flatMap((file) => importsOf(file).filter((target) => target.startsWith('pages/')).map((target) => `${file} -> ${target}`));
    expect(reaching).toEqual([]);
  });

  it('has no page import another page (what two pages share lives outside pages/)', () => {
    const pageToPage = sources()
      .filter((file) => file.startsWith('pages/'))
      .flatMap((file) => importsOf(file).filter((target) => /^pages\/\w+Page\.tsx$/.test(target)).map((target) => `${file} -> ${target}`));
    expect(pageToPage).toEqual([]);
  });
});
