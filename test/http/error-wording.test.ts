import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_EXAMPLES } from '../../scripts/error-examples.js';
import { errors } from '../../src/error-factories.js';
import { ERROR_CODES, ScenaristError } from '../../src/errors.js';

const SRC = join(import.meta.dirname, '../../src');
/** The registry and its factories: the only files that word an error. */
const WORDING_FILES = new Set(['errors.ts', 'error-factories.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * An error built with a sentence of its own: a ScenaristError (or one of the shorthands the registry
 * once had) whose message argument is a string or template literal, before or after its code.
 */
const WORDED_HERE = /\b(?:new ScenaristError|badInput|notFound|conflict|forbidden|unauthorized|invalidRequest)\(\s*(?:['"`]|[A-Za-z_.]+\s*,\s*['"`])/;

describe('error wording', () => {
  it('lives in src/error-factories.ts: no other file of src/ builds an error with a literal sentence', () => {
    const offenders = sourceFiles(SRC)
      .filter((path) => !WORDING_FILES.has(relative(SRC, path)))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SRC, path)}:${i + 1}` }))
          .filter(({ line }) => WORDED_HERE.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches the forms a literal sentence takes', () => {
    for (const line of [
      "throw new ScenaristError('TOO_LARGE', `file '${name}' is too large`);",
      "throw badInput('cursor is not valid', 'CURSOR_INVALID');",
      'return new ScenaristError(code, "worded here");',
    ]) {
      expect(WORDED_HERE.test(line), line).toBe(true);
    }
    expect(WORDED_HERE.test('throw new ScenaristError(outcome.error.code, outcome.error.message, outcome.error.fields);')).toBe(false);
    expect(WORDED_HERE.test('throw errors.scenarioNotFound(ref.id);')).toBe(false);
  });

  it('gives every factory a code of the registry, and every example the code it stands for', () => {
    expect(errors.scenarioNotFound('42')).toBeInstanceOf(ScenaristError);
    expect(errors.scenarioNotFound('42')).toMatchObject({ code: 'SCENARIO_NOT_FOUND', message: "scenario '42' not found" });
    expect(Object.keys(ERROR_EXAMPLES).sort()).toEqual([...ERROR_CODES].sort());
  });
});
