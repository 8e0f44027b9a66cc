import { decodeText } from '../../datasets/etl/decode-text.js';
import type { Extension } from '../../datasets/etl/group-files.js';
import { DEFAULT_ETL_LIMITS } from '../../datasets/etl/limits.js';
import { InflateBudget } from '../../datasets/etl/readers/inflate-budget.js';
import { entryTextAll } from '../../datasets/etl/readers/xlsx/entry-text.js';
import { readLayout, ZipParts } from '../../datasets/etl/readers/xlsx/workbook-parts.js';
import { checkArchive } from '../../datasets/etl/zip-guard.js';
import { ZipFormatError } from '../../datasets/etl/zip-directory.js';

/**
 * The tables one data file holds, named as the ETL will look for them: a CSV file, a JSON array and a
 * one-sheet workbook are one table named after the file; a JSON object gives one table per array it
 * holds, and a workbook of several sheets one table per sheet.
 */
export async function discoverTables(file: string, stem: string, extension: Extension, data: Buffer): Promise<string[]> {
  switch (extension) {
    case 'csv':
      return [stem];
    case 'json':
      return jsonTables(file, stem, data);
    case 'xlsx':
      return xlsxTables(file, stem, data);
  }
}

function jsonTables(file: string, stem: string, data: Buffer): string[] {
  return [...jsonRecords(file, stem, data).keys()];
}

/** The records of each top-level table of a JSON file, by table name. */
function jsonRecords(file: string, stem: string, data: Buffer): Map<string, unknown[]> {
  let root: unknown;
  try {
    root = JSON.parse(decodeText(file, data));
  } catch (err) {
    throw new Error(`${file}: not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (Array.isArray(root)) return new Map([[stem, root]]);
  if (root !== null && typeof root === 'object') {
    const tables = Object.entries(root).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
    if (tables.length > 0) return new Map(tables.map(([key, records]) => [key.trim(), records]));
  }
  throw new Error(`${file}: expected an array of records, or an object of table name -> array of records`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether the field of a top-level JSON table holds arrays of records (objects) and nothing else but
 * nulls: what the upload reads as a nested child table. An array of scalars is not one.
 */
export function holdsNestedRecords(file: string, stem: string, data: Buffer, table: string, field: string): boolean {
  let records = 0;
  for (const record of jsonRecords(file, stem, data).get(table) ?? []) {
    const items = isRecord(record) ? record[field] : undefined;
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items) || !items.every(isRecord)) return false;
    records += items.length;
  }
  return records > 0;
}

async function xlsxTables(file: string, stem: string, data: Buffer): Promise<string[]> {
  const budget = new InflateBudget(DEFAULT_ETL_LIMITS.maxInflatedBytes);
  try {
    const parts = new ZipParts(checkArchive(file, data, DEFAULT_ETL_LIMITS, budget));
    const { sheets } = await readLayout(parts, (entry) => entryTextAll(file, data, entry, budget));
    if (sheets.length === 0) throw new Error(`${file}: the workbook holds no worksheet`);
    return sheets.length === 1 ? [stem] : sheets.map((sheet) => sheet.name.trim());
  } catch (err) {
    if (err instanceof ZipFormatError) throw new Error(`${file}: not a readable XLSX workbook: ${err.message}`, { cause: err });
    throw err;
  }
}
