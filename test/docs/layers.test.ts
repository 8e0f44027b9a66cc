import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/server-process.js';

/**
 * docs/architecture.md draws the layers of `src/` twice (the overview diagram and the "Layers" table);
 * `.dependency-cruiser.mjs` lists them once (`LAYERS`) for `npm run lint:layers`. These tests hold the
 * three to one another and to the code: every folder of `src/` has a layer, and no file imports a
 * folder on its own layer or above. The README's "Layout" lists the folders lowest first.
 */

const SRC = join(REPO_ROOT, 'src');
const ARCHITECTURE = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** Folder -> layer, from a list of layers (lowest first). */
type LayerOf = ReadonlyMap<string, number>;

function layerOf(layers: readonly (readonly string[])[]): LayerOf {
  return new Map(layers.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));
}

/** The layers as sorted lists, for comparing two drawings of them whatever the order within a layer. */
function normalized(layers: readonly (readonly string[])[]): string[][] {
  return layers.map((folders) => [...folders].sort());
}

/** The overview diagram: the first code block's lines `<layer>  <folder> · <folder> ...`. */
function diagramLayers(markdown: string): string[][] {
  const block = /^```\n([\s\S]*?)^```/m.exec(markdown);
  expect(block, 'docs/architecture.md opens with a diagram in a code block').not.toBeNull();
  const layers: string[][] = [];
  for (const line of block![1]!.split('\n')) {
    const match = /^(\d+)\s+([a-z]+(?: · [a-z]+)*)/.exec(line);
    if (match) layers[Number(match[1])] = match[2]!.split(' · ');
  }
  return layers;
}

/** The "Layers" table: per row, the back-quoted names outside parentheses (the folders). */
function tableLayers(markdown: string): string[][] {
  const start = markdown.indexOf('\n## Layers\n');
  expect(start, 'docs/architecture.md has a "## Layers" section').toBeGreaterThan(-1);
  const section = markdown.slice(start, markdown.indexOf('\n## ', start + 1));
  const layers: string[][] = [];
  for (const row of section.split('\n')) {
    const match = /^\| (\d+) \| (.*) \|$/.exec(row);
    if (!match) continue;
    let cell = match[2]!;
    // Descriptions sit in parentheses (and may hold back-quoted names of their own).
    while (/\([^()]*\)/.test(cell)) cell = cell.replace(/\([^()]*\)/g, '');
    layers[Number(match[1])] = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  }
  return layers;
}

/** The top-level folders of `src/`. */
function srcFolders(): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative module a file names: static imports and re-exports (types too), dynamic `import()`. */
function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)];
  return specifiers.map((m) => m[1]!);
}

/** The top-level folder of `src/` a path lies in, if any (the files at the root of `src/` lie in none). */
function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

describe('the layers of src/', () => {
  let configured: string[][];

  beforeAll(async () => {
    const config = (await import(pathToFileURL(join(REPO_ROOT, '.dependency-cruiser.mjs')).href)) as { LAYERS: string[][] };
    configured = config.LAYERS;
  });

  it('give every folder of src/ exactly one layer in .dependency-cruiser.mjs', () => {
    const listed = configured.flat();
    expect(listed.length, 'a folder is listed on two layers').toBe(new Set(listed).size);
    expect([...listed].sort()).toEqual(srcFolders());
  });

  it('are the ones docs/architecture.md draws in its overview diagram', () => {
    expect(normalized(diagramLayers(ARCHITECTURE))).toEqual(normalized(configured));
  });

  it('are the ones docs/architecture.md lists in its "Layers" table', () => {
    expect(normalized(tableLayers(ARCHITECTURE))).toEqual(normalized(configured));
  });

  it("are in the order of the README's layout, lowest first", () => {
    const layer = layerOf(configured);
    const listed = [...README.matchAll(/^src\/([a-z]+)\/ /gm)].map((m) => m[1]!);
    expect([...listed].sort()).toEqual(srcFolders());
    const outOfOrder = listed.filter((folder, i) => i > 0 && layer.get(folder)! < layer.get(listed[i - 1]!)!);
    expect(outOfOrder, 'folders the README lists after a folder of a higher layer').toEqual([]);
  });

  it('hold in the code: a file imports only folders on layers below its own', () => {
    const layer = layerOf(tableLayers(ARCHITECTURE));
    const upward: string[] = [];
    let crossing = 0;
    for (const file of sourceFiles(SRC)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
        const to = folderOf(resolve(dirname(file), specifier));
        if (to === undefined || to === from) continue;
        crossing += 1;
        const fromLayer = layer.get(from);
        const toLayer = layer.get(to);
        if (fromLayer === undefined || toLayer === undefined || toLayer >= fromLayer) {
          upward.push(`${relative(REPO_ROOT, file)} (${from}, layer ${fromLayer ?? 'none'}) imports ${specifier} (${to}, layer ${toLayer ?? 'none'})`);
        }
      }
    }
    expect(crossing, 'imports across folders were found at all').toBeGreaterThan(0);
    expect(upward).toEqual([]);
  });

  it('are read from every kind of import: static, type-only, re-exports and dynamic', () => {
    const text = "import type { X } from '../store/database.js';\nexport { y } from './y.js';\nimport './side-effect.js';\nawait import('../store/z.js');";
    expect(relativeImports(text)).toEqual(['../store/database.js', './y.js', './side-effect.js', '../store/z.js']);
  });
});
