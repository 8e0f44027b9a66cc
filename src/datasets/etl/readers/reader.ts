import type { SchemaGroup } from '../../../domain/dataset-schema.js';
import type { EtlLimits } from '../limits.js';
import type { MessageLog } from '../messages.js';
import type { CellBudget } from './cell-budget.js';
import type { InflateBudget } from './inflate-budget.js';

/**
 * A value that cannot be coerced to any column type, with the reason shown to the client
 * (a nested JSON object, an Excel error such as #DIV/0!).
 */
export class BadCell {
  constructor(readonly problem: string) {}
}

/**
 * A cell as a file holds it, before coercion: text (CSV, XLSX, JSON), numbers and booleans (XLSX, JSON),
 * dates (XLSX date-formatted numbers), missing (`null`/`undefined`) or unusable (`BadCell`).
 */
export type RawCell = string | number | boolean | Date | BadCell | null | undefined;

export interface RowLocation {
  /** 1-based data row, as in `EtlMessage.row`. */
  readonly row: number;
  /** Where inside that row, when the row is not the whole story (a nested JSON child: `item 2 of "lines"`). */
  readonly detail?: string;
}

/** One table as read from a file: a header and rows of raw cells, in file order. */
export interface RawTable {
  /** Column names as written (the validator trims them). */
  readonly header: readonly string[];
  /**
   * Calls `visit` for each row in order; `row[j]` belongs to `header[j]`, and a row may be shorter
   * (missing cells) or longer than the header. Call it once: the CSV and XLSX readers parse while it
   * visits (the XLSX one asynchronously, as its sheet inflates, so it returns a promise).
   * The row array may be reused from one call to the next (the CSV reader does, so that raw cells die
   * young: on a 100k-row file that took the validation from ~300 ms to ~180 ms, mostly garbage
   * collection), so read it during the call and never keep it.
   */
  forEachRow(visit: (row: readonly RawCell[], index: number) => void): void | Promise<void>;
  /** Location of row `index` for messages; without it, row `index + 1`. */
  readonly locate?: (index: number) => RowLocation;
}

/** A raw table over rows already in memory (JSON, XLSX). */
export function rawTableOf(header: readonly string[], rows: readonly (readonly RawCell[])[], locate?: (index: number) => RowLocation): RawTable {
  return { header, forEachRow: (visit) => rows.forEach((row, index) => visit(row, index)), ...(locate ? { locate } : {}) };
}

export interface ReadContext {
  /** The file name as uploaded, for messages. */
  readonly file: string;
  readonly groupName: string;
  readonly group: SchemaGroup;
  readonly limits: EtlLimits;
  /** Where a reader reports what it finds (a missing sheet, a record that is not an object). */
  readonly log: MessageLog;
  /** Shared by all files of the upload, so their cells together stay under `limits.maxCells`. */
  readonly cells: CellBudget;
  /** Shared by all XLSX files of the upload, so that together they expand to at most `limits.maxInflatedBytes`. */
  readonly inflated: InflateBudget;
}

/**
 * Turns one uploaded file into the raw tables of its schema group, keyed by table name. A table the file
 * does not provide is left out after the reader logged an error saying why. Throws `EtlInputError` when
 * the file cannot be read at all.
 */
export type GroupReader = (data: Buffer, context: ReadContext) => Promise<Map<string, RawTable>>;
