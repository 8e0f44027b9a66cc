import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPILED_ROOT_ENV, threadEntry } from '../../src/async/thread-entry.js';
import { threadFlags } from '../../src/async/thread-flags.js';

describe('threadEntry', () => {
  // A checkout: src/pool/starter.ts, and a build of it in dist/ with the compiled entry.
  const root = mkdtempSync(join(tmpdir(), 'scenarist-thread-entry-'));
  mkdirSync(join(root, 'src', 'pool'), { recursive: true });
  mkdirSync(join(root, 'dist', 'src', 'pool'), { recursive: true });
  writeFileSync(join(root, 'dist', 'src', 'pool', 'entry.js'), '');
  const source = pathToFileURL(join(root, 'src', 'pool', 'starter.ts')).href;
  const built = { [COMPILED_ROOT_ENV]: join(root, 'dist') };
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Threads never load their entry through require(esm): see thread-termination.test.ts for why.
  const requireLoadsEsm = (process.features as { require_module?: boolean }).require_module === true;
  const noRequireEsm = requireLoadsEsm ? ['--no-experimental-require-module'] : [];
  const inherited = threadFlags(process.execArgv);
  const flags = [...inherited, ...noRequireEsm];

  it('starts a thread of the compiled code on the compiled entry beside it', () => {
    const compiled = pathToFileURL(join(root, 'dist', 'src', 'pool', 'starter.js')).href;
    expect(threadEntry(compiled, 'entry', built)).toEqual({ filename: pathToFileURL(join(root, 'dist', 'src', 'pool', 'entry.js')).href, execArgv: flags });
  });

  it("starts a thread of the sources on the build's twin of the entry when a build is named", () => {
    expect(threadEntry(source, 'entry', built)).toEqual({ filename: pathToFileURL(join(root, 'dist', 'src', 'pool', 'entry.js')).href, execArgv: flags });
  });

  it("starts a thread of the sources on the build's bundled entry while the bundle is as new as the compile, and on the compiled twin once a compile came after it", () => {
    const other = mkdtempSync(join(tmpdir(), 'scenarist-thread-entry-bundled-'));
    try {
      mkdirSync(join(other, 'src', 'pool'), { recursive: true });
      mkdirSync(join(other, 'dist', 'src', 'pool'), { recursive: true });
      mkdirSync(join(other, 'dist', 'bundle'), { recursive: true });
      const compiled = join(other, 'dist', 'src', 'pool', 'entry.js');
      const bundled = join(other, 'dist', 'bundle', 'entry.js');
      const compileRecord = join(other, 'dist', '.tsbuildinfo');
      for (const file of [compiled, bundled, compileRecord]) writeFileSync(file, '');
      const starter = pathToFileURL(join(other, 'src', 'pool', 'starter.ts')).href;
      const env = { [COMPILED_ROOT_ENV]: join(other, 'dist') };
      utimesSync(compileRecord, 1_000, 1_000);
      utimesSync(bundled, 1_000, 1_000);
      expect(threadEntry(starter, 'entry', env)).toEqual({ filename: pathToFileURL(bundled).href, execArgv: flags });
      utimesSync(compileRecord, 2_000, 2_000);
      expect(threadEntry(starter, 'entry', env)).toEqual({ filename: pathToFileURL(compiled).href, execArgv: flags });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('imports the TypeScript entry through tsx when no build is named, or the build lacks the entry', () => {
    const typescript = {
      filename: pathToFileURL(join(root, 'src', 'pool', 'entry.ts')).href,
      execArgv: [...inherited, '--import', 'tsx', ...noRequireEsm],
    };
    expect(threadEntry(source, 'entry', {})).toEqual(typescript);
    const otherBuild = mkdtempSync(join(tmpdir(), 'scenarist-thread-entry-other-'));
    try {
      expect(threadEntry(source, 'entry', { [COMPILED_ROOT_ENV]: join(otherBuild, 'dist') })).toEqual(typescript);
    } finally {
      rmSync(otherBuild, { recursive: true, force: true });
    }
  });
});
