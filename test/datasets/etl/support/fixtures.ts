import { expect } from 'vitest';
import type { ErrorCode } from '../../../../src/errors.js';
import { EtlInputError, runEtl, type EtlLimits, type EtlMessage, type EtlOutcome, type UploadedFile } from '../../../../src/datasets/etl/index.js';
import type { Table } from '../../../../src/domain/dataset-model.js';
import type { Schemas } from '../../../../src/domain/dataset-schema.js';
import { buildXlsx, type XlsxOptions, type XlsxRows } from './xlsx-builder.js';

/** A small warehouse-like domain: one single-table group, one optional group, one nested group. */
export const SCHEMAS: Schemas = {
  items: {
    tables: {
      items: {
        columns: {
          id: { type: 'string', primaryKey: true },
          qty: { type: 'integer' },
          price: { type: 'float' },
          active: { type: 'boolean', required: false, default: true },
          added: { type: 'datetime', required: false, nullable: true },
        },
      },
    },
  },
};

export function upload(filename: string, content: string | Buffer): UploadedFile {
  return { filename, data: typeof content === 'string' ? Buffer.from(content, 'utf8') : content };
}

/** Runs the pipeline and expects success, returning the tables and messages. */
export async function expectSuccess(schemas: Schemas, files: UploadedFile[], limits?: Partial<EtlLimits>) {
  const outcome = await runEtl(schemas, files, limits);
  if (!outcome.success) expect.fail(`expected success, got ${JSON.stringify(outcome.messages, null, 1)}`);
  return outcome;
}

/** Runs the pipeline and expects `success: false`, returning the messages. */
export async function expectFailure(schemas: Schemas, files: UploadedFile[], limits?: Partial<EtlLimits>): Promise<EtlMessage[]> {
  const outcome: EtlOutcome = await runEtl(schemas, files, limits);
  expect(outcome.success).toBe(false);
  expect(outcome).not.toHaveProperty('tables');
  expect(outcome.messages.some((m) => m.severity === 'error')).toBe(true);
  return outcome.messages;
}

/** Runs the pipeline and expects it to throw an `EtlInputError` (HTTP 400) of `code` (else one of the ETL input codes) whose message matches. */
export async function expectInputError(schemas: Schemas, files: UploadedFile[], pattern: RegExp, limits?: Partial<EtlLimits>, code?: ErrorCode): Promise<EtlInputError> {
  const error = await runEtl(schemas, files, limits).then(
    () => expect.fail('expected an EtlInputError'),
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(EtlInputError);
  const input = error as EtlInputError;
  if (code === undefined) expect(['ETL_INPUT_INVALID', 'ETL_SCHEMA_MISMATCH']).toContain(input.code);
  else expect(input.code).toBe(code);
  expect(input.message).toMatch(pattern);
  return input;
}

export function errors(messages: readonly EtlMessage[]): EtlMessage[] {
  return messages.filter((m) => m.severity === 'error');
}

/** Rows as objects keyed by column name, for readable assertions. */
export function records(table: Table | undefined): Record<string, unknown>[] {
  if (!table) return expect.fail('table missing');
  return table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column.name, row[i]])));
}

/** A real XLSX file: one sheet per entry, rows of cell values (first row = header). */
export async function workbook(sheets: Record<string, XlsxRows>, options?: XlsxOptions): Promise<Buffer> {
  return buildXlsx(sheets, options);
}
