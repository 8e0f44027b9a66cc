import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../src/config/settings.js';
import { SPEED_LAYERS } from '../../src/config/speed-layers.js';
import { REPO_ROOT } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Libraries the project once used and dropped: a doc still naming them is out of date. */
const DROPPED_LIBRARIES = ['exceljs', 'sheetjs', 'bullmq', 'knex'];
/** Installed package names that are also plain English words in the docs' prose. */
const ENGLISH_WORDS = new Set(['ms', 'once', 'progress', 'statuses', 'which']);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names of the packages installed in a node_modules folder (scoped ones as `@scope/name`). */
function installedPackages(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    return entry.startsWith('@') ? readdirSync(join(dir, entry)).map((name) => `${entry}/${name}`) : [entry];
  });
}

/** Folders that hold no documentation of ours. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED.has(entry.name) || entry.name.startsWith('.') ? [] : markdownFiles(join(dir, entry.name));
    return entry.name.endsWith('.md') ? [join(dir, entry.name)] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The lines of the table that follows a `## <heading>` of the README. */
function tableUnder(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README has a "## ${heading}" section`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'));
}

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

describe('the documentation', () => {
  it('has no relative link that does not resolve', () => {
    const broken: string[] = [];
    for (const file of markdownFiles(REPO_ROOT)) {
      for (const match of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('<')) continue;
        const path = decodeURIComponent(target.split('#')[0]!);
        if (!existsSync(join(dirname(file), path))) broken.push(`${relative(REPO_ROOT, file)}: ${target}`);
      }
    }
    expect(broken.join(", ")).toBe("");
  });

  it('lists every setting of settings.ts in the README Settings table', () => {
    const named = new Set(tableUnder(README, 'Settings').map((line) => /^\| `([a-z_]+)` \|/.exec(line)?.[1]));
    expect(SETTING_NAMES.filter((name) => !named.has(name))).toEqual([]);
  });

  it('names every speed layer in the README row of bench_layers_off', () => {
    const row = tableUnder(README, 'Settings').find((line) => line.startsWith('| `bench_layers_off` |')) ?? '';
    expect(SPEED_LAYERS.filter((layer) => !row.includes(`\`${layer}\``))).toEqual([]);
  });

  it('names in docs/architecture.md only libraries the project depends on directly', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
    const direct = new Set(
      ['package.json', 'web/package.json'].flatMap((file) => {
        const manifest = JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as Record<string, Record<string, string> | undefined>;
        return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
      }),
    );
    // Every package installed (ours and what they pull in), plus libraries the project used to name.
    const installed = ['node_modules', 'web/node_modules'].flatMap((dir) => installedPackages(join(REPO_ROOT, dir)));
    const libraries = new Set([...installed, ...DROPPED_LIBRARIES]);
    const named = [...libraries].filter((name) => !ENGLISH_WORDS.has(name) && new RegExp(`(^|[^\\w@/.-])${escapeRegExp(name)}(?![\\w-])`, 'i').test(doc));
    expect(named.filter((name) => !direct.has(name))).toEqual([]);
  });

  describe('and the OpenAPI document', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('sqlite', { workers: 0 });
    });
    afterAll(() => t?.close());

    it('lists every route of the OpenAPI document in the README Routes table', () => {
      const { paths } = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
      // A cell may hold an escaped pipe (`json\|csv`): split on the others only.
      const cells = tableUnder(README, 'Routes').map((line) => line.split(/(?<!\\)\|/)[1] ?? '');
      const prefix = t.runtime.services.settings.prefix;
      const missing: string[] = [];
      for (const [fullPath, operations] of Object.entries(paths)) {
        const path = fullPath.startsWith(`${prefix}/`) ? fullPath.slice(prefix.length) : fullPath;
        for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
          if (!cells.some((cell) => documents(cell, method, path))) missing.push(`${method} ${path}`);
        }
      }
      expect(missing.join(", ")).toBe("");
    });
  });
});

/**
 * Whether a README routes cell names the route: the method and the path, written whole or as
 * `.../<tail>` where the tail is the end of the path from a literal segment on.
 */
function documents(cell: string, method: string, path: string): boolean {
  if (!new RegExp(`\\b${method}\\b`).test(cell)) return false;
  const segments = path.split('/').slice(1);
  const forms = [path];
  for (let i = 1; i < segments.length; i++) if (!segments[i]!.startsWith('{')) forms.push(`.../${segments.slice(i).join('/')}`);
  return forms.some((form) => new RegExp(`${escape(form)}(?![\\w/{-])`).test(cell));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
