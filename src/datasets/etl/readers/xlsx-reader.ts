import { matchName } from '../column-match.js';
import { formatExcelDate } from '../datetime.js';
import { fileError } from '../errors.js';
import { guardZip } from '../zip-guard.js';
import { BadCell, rawTableOf, type GroupReader, type RawCell, type RawTable, type ReadContext } from './reader.js';
import { xlsxCell } from './xlsx-cell.js';
import { loadWorkbook, type XlsxSheet } from './xlsx-workbook.js';

/**
 * An XLSX file holds one sheet per table, named like the table; a one-table group may instead send a
 * workbook with a single sheet of any name. In each sheet the first non-empty row is the header, and data
 * row n is the n-th row below it (blank rows count, so row n is sheet row n + 1 when the header is row 1).
 */
export const readXlsx: GroupReader = async (data, context) => {
  await guardZip(context.file, data, context.limits);
  let sheets: XlsxSheet[];
  try {
    sheets = await loadWorkbook(data);
  } catch (err) {
    throw fileError(context.file, `not a readable XLSX workbook: ${(err as Error).message}`);
  }
  // Every workbook has a sheet; a zip without one is some other archive renamed.
  if (sheets.length === 0) throw fileError(context.file, 'not a readable XLSX workbook: it holds no worksheet');
  const tables = new Map<string, RawTable>();
  for (const [table, sheet] of pickSheets(sheets, context)) {
    context.cells.charge(context.file, sheet.rowCount, sheet.columnCount);
    tables.set(table, sheetTable(sheet));
  }
  return tables;
};

function pickSheets(sheets: XlsxSheet[], { file, group, groupName, log }: ReadContext): Map<string, XlsxSheet> {
  const tables = Object.keys(group.tables);
  if (tables.length === 1 && sheets.length === 1) return new Map([[tables[0]!, sheets[0]!]]);
  const names = sheets.map((sheet) => sheet.name);
  const taken = new Set<number>();
  const picked = new Map<string, XlsxSheet>();
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

function sheetTable(sheet: XlsxSheet): RawTable {
  const byRow = sheet.values();
  let headerRow = 1;
  while (headerRow < byRow.length && isBlank(byRow[headerRow])) headerRow++;
  const header = rowCells(byRow[headerRow]).map(headerText);
  const rows: RawCell[][] = [];
  for (let r = headerRow + 1; r < byRow.length; r++) rows.push(rowCells(byRow[r]));
  return rawTableOf(header, rows);
}

/** Cells of one row, from column 1; an absent row (exceljs leaves holes for empty rows) has none. */
function rowCells(values: unknown): RawCell[] {
  if (!Array.isArray(values)) return [];
  const cells: RawCell[] = [];
  for (let c = 1; c < values.length; c++) cells.push(xlsxCell(values[c]));
  return cells;
}

function isBlank(values: unknown): boolean {
  return rowCells(values).every((cell) => cell === null || cell === '');
}

function headerText(cell: RawCell): string {
  if (cell === null || cell === undefined || cell instanceof BadCell) return '';
  if (cell instanceof Date) return formatExcelDate(cell) ?? '';
  return String(cell);
}
