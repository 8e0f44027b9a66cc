import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchDomainDir } from '../../src/cli/dev/watch.js';

const dir = mkdtempSync(join(tmpdir(), 'scenarist-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('watchDomainDir', () => {
  it('reports changed code files (subdirectories too), never the data directory, node_modules or other files', async () => {
    for (const sub of ['algorithms', 'data', 'node_modules/x']) mkdirSync(join(dir, sub), { recursive: true });
    const wanted = [join(dir, 'algorithms', 'a.ts'), join(dir, 'domain.ts')];
    const reported = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only saw ${[...reported].join(', ')}`)), 30_000);
      const watcher = watchDomainDir(dir, join(dir, 'data'), (files) => {
        for (const file of files) reported.add(file);
        if (wanted.every((file) => reported.has(file))) {
          clearTimeout(timer);
          watcher.close();
          resolve();
        }
      }, 300);
      writeFileSync(join(dir, 'data', 'scenarist.json'), '{}');
      writeFileSync(join(dir, 'node_modules/x', 'index.ts'), '');
      writeFileSync(join(dir, 'notes.txt'), 'x');
      writeFileSync(join(dir, 'domain.ts'), 'export {};');
      writeFileSync(join(dir, 'algorithms', 'a.ts'), 'export {};');
    });
    expect([...reported].sort()).toEqual(wanted);
  });
});
