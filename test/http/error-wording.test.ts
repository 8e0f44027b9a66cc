import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_EXAMPLES } from '../../scripts/error-examples.js';
import { etlErrors } from '../../src/datasets/etl/error-factories.js';
import { errors } from '../../src/error-factories.js';
import { ERROR_CODES, ScenaristError } from '../../src/errors.js';

const SRC = join(import.meta.dirname, '../../src');
/** The registry and its factories, and the upload code's factories: the only files that word an error. */
const WORDING_FILES = new Set(['errors.ts', 'error-factories.ts', join('datasets', 'etl', 'error-factories.ts')]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * An error worded where it is built: a message argument that is a string or template literal, given
 * to one of the shorthands the registry once had (message first), to a ScenaristError or an error body
 * (after the code), or to the `super` of a subclass after its code; an upload error's sentence given to
 * an EtlInputError (first) or to the file-error helpers the upload code once had (after the file, or the
 * file and the place in it); or an error body's literal `detail`.
 */
const WORDED_HERE = new RegExp(
  [
    /\b(?:badInput|notFound|conflict|forbidden|unauthorized|invalidRequest)\(\s*['"`]/.source,
    /\b(?:new ScenaristError|errorBody)\([^,()]*,\s*['"`]/.source,
    /\bsuper\([^,]*'[A-Z][A-Z_]+'[^,]*,\s*['"`]/.source,
    /\bnew EtlInputError\(\s*['"`]/.source,
    /\bfileError\([^,]*,\s*['"`]/.source,
    /\bstructureError\([^,]*,[^,]*,\s*['"`]/.source,
    /\bdetail:\s*['"`]/.source,
  ].join('|'),
);

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
      "super(work === 'upload' ? 'UPLOAD_BUSY' : 'VIEW_BUSY', `every ${work} thread is busy`);",
      "reply.code(404).send(errorBody('ROUTE_NOT_FOUND', `no route ${method}`));",
      "return { status: 408, code: 'REQUEST_TIMEOUT', detail: 'the request was not received in time' };",
      "if (files.length === 0) throw new EtlInputError('no file uploaded; send one file per schema group');",
      "throw new EtlInputError(`files '${a}' and '${b}' are both for schema group '${group}'`, b);",
      "throw fileError(this.context.file, `sheet '${this.context.sheet}' has a row numbered '${reference}' out of order`);",
      "throw fileError(file, 'the file is empty');",
      "throw structureError(file, `shared string ${n}`, `the string is longer than the limit`);",
    ]) {
      expect(WORDED_HERE.test(line), line).toBe(true);
    }
    expect(WORDED_HERE.test('throw new ScenaristError(outcome.error.code, outcome.error.message, outcome.error.fields);')).toBe(false);
    expect(WORDED_HERE.test('throw errors.scenarioNotFound(ref.id);')).toBe(false);
    expect(WORDED_HERE.test('throw etlErrors.sheetRowOutOfOrder(this.context.file, this.context.sheet, reference);')).toBe(false);
    expect(WORDED_HERE.test('(where, problem) => etlErrors.structureLimit(file, where, problem)')).toBe(false);
    expect(WORDED_HERE.test("return { status: 400, body: { ...errorBody('PARAMETER_INVALID', err.message), errors: err.errors } };")).toBe(false);
    // Errors that are not answers (a setting refused at start, a client's own error) word themselves.
    expect(WORDED_HERE.test('super(`invalid setting ${setting}: ${reason}`);')).toBe(false);
  });

  it("shows in docs/api/errors.md, for each code, an example built by a factory of that code", () => {
    expect(Object.keys(ERROR_EXAMPLES).sort()).toEqual([...ERROR_CODES].sort());
    for (const [code, example] of Object.entries(ERROR_EXAMPLES)) {
      if (example === undefined) continue;
      expect(example, code).toBeInstanceOf(ScenaristError);
      expect(example.code, code).toBe(code);
      expect(example.message.length, code).toBeGreaterThan(10);
    }
    expect(errors.scenarioNotFound('42')).toMatchObject({ code: 'SCENARIO_NOT_FOUND', message: "scenario '42' not found" });
    // The upload's factories keep the file an error is about, which the pipeline reports it under.
    expect(etlErrors.extensionUnsupported('notes', '')).toMatchObject({
      code: 'ETL_INPUT_INVALID',
      file: 'notes',
      message: "file 'notes': no extension; upload .csv, .json or .xlsx files",
    });
    expect(etlErrors.sheetTextTooLong('plan.xlsx', 'Orders', 7, 1024 * 1024)).toMatchObject({
      code: 'UPLOAD_STRUCTURE_LIMIT',
      file: 'plan.xlsx',
      message: "file 'plan.xlsx', sheet 'Orders', after row 7: a run of text without a tag is longer than the limit of 1 MiB (upload_max_field)",
    });
  });
});
