import { matchName } from '../column-match.js';
import { formatExcelDate } from '../datetime.js';
import { etlErrors } from '../error-factories.js';
import { checkArchive, checkUnreadEntries } from '../zip-guard.js';
import { ZipFormatError, type ZipEntry } from '../zip-directory.js';
import { BadCell, type GroupReader, type RawCell, type RawTable, type ReadContext, type RowLocation } from './reader.js';
import { CellStyles } from './xlsx/cell-styles.js';
import { entryText, entryTextAll, PieceQueue } from './xlsx/entry-text.js';
import { readSharedStrings } from './xlsx/shared-strings.js';
import { NEED_TEXT, ROW_READY, SheetRows } from './xlsx/sheet-rows.js';
import { readLayout, ZipParts, type WorkbookLayout } from './xlsx/workbook-parts.js';
import { XmlScanner } from './xlsx/xml-scanner.js';

type Sheet = WorkbookLayout['sheets'][number];

/**
 * An XLSX file holds one sheet per table, named like the table; a one-table group may instead send a
 * workbook with a single sheet of any name. In each sheet the first non-empty row is the header, and data
 * row n is the n-th row below it (blank rows count, so row n is sheet row n + 1 when the header is row 1).
 *
 * The workbook is never inflated whole: the sheet list, relationships and styles are small; the shared
 * strings are read once; each sheet is inflated and scanned while its rows are validated, every inflated
 * byte and every cell charged to the upload's budgets as it comes.
 */
export const readXlsx: GroupReader = async (data, context) => {
  const { file } = context;
  try {
    const entries = checkArchive(file, data, context.limits, context.inflated);
    const parts = new ZipParts(entries);
    const textOf = (entry: ZipEntry) => entryText(file, data, entry, context.inflated);
    const layout = await readLayout(parts, (entry) => entryTextAll(file, data, entry, context.inflated));
    // Every workbook has a sheet; a zip without one is some other archive renamed (check it is a sound one).
    if (layout.sheets.length === 0) {
      await checkUnreadEntries(file, data, entries);
      throw new ZipFormatError('it holds no worksheet');
    }
    const picked = pickSheets(layout.sheets, context);
    const streamed = new Set<ZipEntry>([...picked.values()].map((sheet) => sheet.entry));
    if (layout.sharedStrings) streamed.add(layout.sharedStrings);
    await checkUnreadEntries(file, data, entries.filter((entry) => !streamed.has(entry)));
    const styles = layout.styles ? CellStyles.parse(await entryTextAll(file, data, layout.styles, context.inflated)) : CellStyles.none();
    const { maxFieldBytes } = context.limits;
    const sharedStrings = layout.sharedStrings ? await readSharedStrings(new PieceQueue(textOf(layout.sharedStrings)), file, layout.sharedStrings.name, maxFieldBytes) : [];
    const tables = new Map<string, RawTable>();
    for (const [table, sheet] of picked) {
      const queue = new PieceQueue(textOf(sheet.entry));
      const scanner = new XmlScanner(() => queue.take(), sheet.entry.name, maxFieldBytes);
      const rows = new SheetRows(scanner, { file, sheet: sheet.name, sharedStrings, styles, date1904: layout.date1904, maxFieldBytes });
      tables.set(table, await sheetTable(rows, scanner, queue, context));
    }
    return tables;
  } catch (err) {
    throw asInputError(file, err);
  }
};

function asInputError(file: string, err: unknown): unknown {
  return err instanceof ZipFormatError ? etlErrors.workbookUnreadable(file, err.message) : err;
}

function pickSheets(sheets: readonly Sheet[], { file, group, groupName, log }: ReadContext): Map<string, Sheet> {
  const tables = Object.keys(group.tables);
  if (tables.length === 1 && sheets.length === 1) return new Map([[tables[0]!, sheets[0]!]]);
  const names = sheets.map((sheet) => sheet.name);
  const taken = new Set<number>();
  const picked = new Map<string, Sheet>();
  for (const table of tables) {
    const index = matchName(table, names, taken);
    if (index < 0) {
      log.add({ severity: 'error', file, table, message: `the workbook has no sheet named '${table}' (its sheets: ${names.join(', ') || 'none'})` });
      continue;
    }
    taken.add(index);
    picked.set(table, sheets[index]!);
  }
  names.forEach((name, i) => {
    if (!taken.has(i)) log.add({ severity: 'info', file, message: `sheet '${name}' is not a table of group '${groupName}'; ignored` });
  });
  return picked;
}

/**
 * The header is read now (the first non-blank row); data rows are read while the validator visits them,
 * inflating the sheet as the scan goes, so a sheet's cells are never all in memory.
 * Data row index = sheet row - header row - 1.
 */
async function sheetTable(rows: SheetRows, scanner: XmlScanner, queue: PieceQueue, { file, cells }: ReadContext): Promise<RawTable> {
  // At least as much new text as the scanner keeps: see `XmlScanner` on linear work.
  const refill = () => queue.fill(scanner.keptChars);
  let header: string[] = [];
  let headerRow = 0;
  for (let state = rows.next(); ; state = rows.next()) {
    if (state === NEED_TEXT) {
      await refill();
    } else if (state !== ROW_READY) {
      break;
    } else if (!isBlank(rows.cells)) {
      header = rows.cells.map(headerText);
      headerRow = rows.rowNumber;
      cells.charge(file, 1, header.length);
      break;
    }
  }
  const locate = (index: number): RowLocation => ({ row: index + 1 });
  return {
    header,
    locate,
    forEachRow: async (visit) => {
      try {
        for (let state = rows.next(); ; state = rows.next()) {
          if (state === NEED_TEXT) {
            await refill();
          } else if (state === ROW_READY) {
            cells.charge(file, 1, rows.cells.length);
            visit(rows.cells, rows.rowNumber - headerRow - 1);
          } else {
            return;
          }
        }
      } catch (err) {
        throw asInputError(file, err);
      } finally {
        await queue.close();
      }
    },
  };
}

function isBlank(cells: readonly RawCell[]): boolean {
  return cells.every((cell) => cell === null || cell === undefined || cell === '');
}

function headerText(cell: RawCell): string {
  if (cell === null || cell === undefined || cell instanceof BadCell) return '';
  if (cell instanceof Date) return formatExcelDate(cell) ?? '';
  return String(cell);
}
