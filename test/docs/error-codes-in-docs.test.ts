import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BETTER_WHEN } from '../../src/domain/define.js';
import { ERROR_CODES } from '../../src/errors.js';
import { INHERITED } from '../../src/executor/run/external/child-environment.js';
import { RUN_ERROR_CODES } from '../../src/model/run-state/run-error.js';
import { STATUSES } from '../../src/model/run-state/state-machine.js';
import { REPO_ROOT } from '../support/server-process.js';

/** Folders that hold no documentation of ours. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage']);

function files(dir: string, keep: (name: string) => boolean, skip = SKIPPED): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return skip.has(entry.name) || entry.name.startsWith('.') ? [] : files(join(dir, entry.name), keep, skip);
    return keep(entry.name) ? [join(dir, entry.name)] : [];
  });
}

/** The README and every page under docs/. */
const DOCUMENTS = [join(REPO_ROOT, 'README.md'), ...files(join(REPO_ROOT, 'docs'), (name) => name.endsWith('.md'))];

/**
 * Upper-case names the docs use that are not HTTP error codes: run error codes, statuses, KPI
 * directions, environment variables (`SCENARIST_*`, those an external program inherits), and constants of the source (`ERROR_REGISTRY`,
 * the column lists `NO_RUN`, ...), found where they are declared so that a renamed one is not missed.
 */
function otherNames(): Set<string> {
  const declared = files(join(REPO_ROOT, 'src'), (name) => name.endsWith('.ts')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\b(?:const|let|enum|type|interface|class)\s+([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!),
  );
  return new Set<string>([...RUN_ERROR_CODES, ...STATUSES, ...BETTER_WHEN, ...INHERITED, ...declared]);
}

/**
 * The error codes a text names: in backticks, an UPPER_SNAKE name with an underscore (`TOO_LARGE`), or
 * any upper-case name that follows a status (`409 CONFLICT`, 409 `CONFLICT`), also across a line break.
 */
export function namedCodes(text: string): string[] {
  const named: string[] = [];
  for (const match of text.matchAll(/(?:\b[1-5]\d\d\s+)?`(?:([1-5]\d\d)\s+)?([A-Z][A-Z0-9_]*)`/g)) {
    const afterStatus = /^[1-5]\d\d\s/.test(match[0]) || match[1] !== undefined;
    const name = match[2]!;
    if (name.includes('_') ? !name.startsWith('SCENARIST_') : afterStatus) named.push(name);
  }
  return named;
}

describe('the error codes the documentation names', () => {
  it('finds codes however a page writes them', () => {
    expect(namedCodes('a `400\n  INVALID_PARAMETER` or 409 `CONFLICT`, `TOO_LARGE`; not `GET`, `SCENARIST_PORT` nor `COMPLETE`')).toEqual([
      'INVALID_PARAMETER',
      'CONFLICT',
      'TOO_LARGE',
    ]);
  });

  it('are all in the registry (src/errors.ts), so a client branching on one can get it', () => {
    const registry = new Set<string>(ERROR_CODES);
    const others = otherNames();
    const unknown = DOCUMENTS.flatMap((file) =>
      namedCodes(readFileSync(file, 'utf8'))
        .filter((code) => !registry.has(code) && !others.has(code))
        .map((code) => `${relative(REPO_ROOT, file)}: ${code}`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });
});
