import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchDomainDir, type DomainWatcher } from '../../src/cli/dev/watch.js';

const root = mkdtempSync(join(tmpdir(), 'scenarist-watch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * One watched domain folder per test, and the reports it gives: `saved` waits (with a deadline) until
 * a report names every wanted file, so each kind of save is shown to trigger a reload.
 */
describe('watchDomainDir', () => {
  let dir: string;
  let watcher: DomainWatcher;
  let reported: Set<string>;
  let waiters: (() => void)[];
  beforeEach(async () => {
    dir = mkdtempSync(join(root, 'domain-'));
    for (const sub of ['algorithms', 'data', 'node_modules/x']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'domain.ts'), 'export {};');
    reported = new Set();
    waiters = [];
    watcher = watchDomainDir(dir, join(dir, 'data'), (files) => {
      for (const file of files) reported.add(file);
      for (const wake of waiters) wake();
    });
    await watcher.ready;
  });
  afterEach(() => watcher.close());

  const saved = (...files: string[]) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only saw ${[...reported].join(', ') || 'nothing'}`)), 20_000);
      const check = () => {
        if (!files.every((file) => reported.has(file))) return;
        clearTimeout(timer);
        resolve();
      };
      waiters.push(check);
      check();
    });

  it('reports a file saved in place (subdirectories too), never the data directory, node_modules or other files', async () => {
    writeFileSync(join(dir, 'data', 'scenarist.json'), '{}');
    writeFileSync(join(dir, 'node_modules/x', 'index.ts'), '');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'domain.ts'), 'export const a = 1;');
    writeFileSync(join(dir, 'algorithms', 'a.ts'), 'export {};');
    await saved(join(dir, 'domain.ts'), join(dir, 'algorithms', 'a.ts'));
    expect([...reported].sort()).toEqual([join(dir, 'algorithms', 'a.ts'), join(dir, 'domain.ts')]);
  });

  it('reports a save through a temp file renamed over the original (vim, JetBrains, VS Code safe write)', async () => {
    const temp = join(dir, '.domain.ts.swp');
    writeFileSync(temp, 'export const b = 2;');
    renameSync(temp, join(dir, 'domain.ts'));
    await saved(join(dir, 'domain.ts'));
    expect(reported.has(temp)).toBe(false);
  });

  it('reports a new file, in a new folder too', async () => {
    mkdirSync(join(dir, 'kpis'));
    writeFileSync(join(dir, 'kpis', 'new.ts'), 'export {};');
    writeFileSync(join(dir, 'algorithms', 'new.ts'), 'export {};');
    await saved(join(dir, 'kpis', 'new.ts'), join(dir, 'algorithms', 'new.ts'));
  });

  it("reports a changed program of an external algorithm, never Python's bytecode cache", async () => {
    mkdirSync(join(dir, 'algorithms', '__pycache__'));
    writeFileSync(join(dir, 'algorithms', '__pycache__', 'helpers.cpython-311.pyc'), '');
    writeFileSync(join(dir, 'algorithms', 'solve.py'), 'print(1)');
    writeFileSync(join(dir, 'algorithms', 'model.mzn'), 'var 0..1: x;');
    await saved(join(dir, 'algorithms', 'solve.py'), join(dir, 'algorithms', 'model.mzn'));
    expect([...reported].sort()).toEqual([join(dir, 'algorithms', 'model.mzn'), join(dir, 'algorithms', 'solve.py')]);
  });

  it('reports a deleted file, and again when it is created anew', async () => {
    unlinkSync(join(dir, 'domain.ts'));
    await saved(join(dir, 'domain.ts'));
    reported.clear();
    writeFileSync(join(dir, 'domain.ts'), 'export const c = 3;');
    await saved(join(dir, 'domain.ts'));
  });
});
