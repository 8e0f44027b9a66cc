import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DomainTypechecker, loadTypescript } from '../../src/cli/dev/typecheck.js';

const root = mkdtempSync(join(tmpdir(), 'scenarist-typecheck-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, 'domain.ts');
}

describe('DomainTypechecker', () => {
  it('reports every error as one block naming the files, and passes once they are fixed', () => {
    const domain = project('plain', { 'domain.ts': "import { n } from './helper.js';\nexport const a: string = n;\nexport const b: number = 'b';\n", 'helper.ts': 'export const n = 1;\n' });
    const checker = new DomainTypechecker(loadTypescript(domain), domain);
    const outcome = checker.check();
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toBe(2);
    expect(outcome.report).toBe(`scenarist: the domain ${domain} does not type-check (2 errors in domain.ts):

domain.ts(2,14): error TS2322: Type 'number' is not assignable to type 'string'.
domain.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'.`);
    writeFileSync(domain, "import { n } from './helper.js';\nexport const a: number = n;\n");
    utimesSync(domain, new Date(), new Date(Date.now() + 5_000));
    expect(checker.check()).toEqual({ ok: true });
  });

  it('checks the files the tsconfig.json includes, with its options', () => {
    const domain = project('configured', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', types: [] }, include: ['**/*.ts'] }),
      'domain.ts': 'export const ok = 1;\n',
      'kpis/loose.ts': 'export function f(x) { return x; }\n',
    });
    const outcome = new DomainTypechecker(loadTypescript(domain), domain).check();
    expect(outcome).toMatchObject({ ok: false, errors: 1 });
    expect(!outcome.ok && outcome.report).toContain("kpis/loose.ts(1,19): error TS7006: Parameter 'x' implicitly has an 'any' type.");
  });
});
