import { fileError } from '../../errors.js';
import { BadCell, type RawCell } from '../reader.js';
import { excelSerialToDate, type CellStyles } from './cell-styles.js';
import { CELL, FORMULA, INLINE_STRING, PHONETIC, ROW, SHEET_DATA, TEXT, VALUE, type XmlScanner } from './xml-scanner.js';

/** Excel's last column is XFD; a reference beyond it is not a worksheet cell. */
const MAX_COLUMNS = 16_384;
const MALFORMED_NUMBER = new BadCell('a malformed number');
const MISSING_SHARED_STRING = new BadCell('a reference to a shared string that does not exist');

export interface SheetContext {
  readonly file: string;
  readonly sheet: string;
  readonly sharedStrings: readonly string[];
  readonly styles: CellStyles;
  readonly date1904: boolean;
}

/**
 * Reads a worksheet's rows one at a time as raw cells: numbers (dates where the cell's style is a date
 * format), text (shared, inline, or a formula's text result), booleans, and Excel errors as `BadCell`s.
 * A formula cell gives its cached result. `row.cells` is reused from one row to the next.
 */
export class SheetRows {
  /** The 1-based sheet row number of the current row. */
  rowNumber = 0;
  readonly cells: RawCell[] = [];
  private ended = false;

  constructor(
    private readonly scanner: XmlScanner,
    private readonly context: SheetContext,
  ) {}

  /** Moves to the next row present in the sheet; false after the last. */
  next(): boolean {
    const { scanner } = this;
    while (!this.ended && scanner.next()) {
      if (scanner.tag === ROW && !scanner.closing) {
        this.rowNumber = this.rowNumberOf(scanner.attr('r'));
        this.cells.length = 0;
        if (!scanner.selfClosing) this.readCells();
        return true;
      }
      if (scanner.tag === SHEET_DATA && (scanner.closing || scanner.selfClosing)) this.ended = true;
    }
    this.ended = true;
    return false;
  }

  private readCells(): void {
    const { scanner, cells } = this;
    let column = -1;
    while (scanner.next()) {
      if (scanner.tag === ROW && scanner.closing) return;
      if (scanner.tag !== CELL || scanner.closing) continue;
      column = this.columnOf(scanner.attr('r'), column);
      const type = scanner.attr('t');
      const style = scanner.attr('s');
      if (scanner.selfClosing) continue;
      const value = this.readCellValue(type, style === undefined ? 0 : Number(style));
      if (value !== null) {
        while (cells.length < column) cells.push(null);
        cells[column] = value;
      }
    }
  }

  /** Reads the cell's children up to `</c>` and interprets its value by type `t`. */
  private readCellValue(type: string | undefined, style: number): RawCell {
    const { scanner } = this;
    let text: string | undefined;
    while (scanner.next()) {
      const { tag } = scanner;
      if (tag === CELL && scanner.closing) break;
      if (scanner.closing || scanner.selfClosing) continue;
      if (tag === VALUE) text = scanner.text();
      else if (tag === INLINE_STRING) text = this.readInlineString();
      else if (tag === FORMULA) scanner.skipElement();
    }
    if (text === undefined) return null;
    switch (type) {
      case 's':
        return this.context.sharedStrings[Number(text)] ?? MISSING_SHARED_STRING;
      case 'str':
      case 'inlineStr':
      case 'd':
        return text;
      case 'b':
        return text === '1' || text === 'true';
      case 'e':
        return new BadCell(`the Excel error ${text}`);
      default:
        return this.number(text, style);
    }
  }

  private number(text: string, style: number): RawCell {
    if (text.trim() === '') return null;
    const value = Number(text);
    if (!Number.isFinite(value)) return MALFORMED_NUMBER;
    return this.context.styles.isDate(style) ? excelSerialToDate(value, this.context.date1904) : value;
  }

  /** The text of `<is>`: its `<t>` runs joined, phonetic runs left out. */
  private readInlineString(): string {
    const { scanner } = this;
    let text = '';
    while (scanner.next()) {
      if (scanner.tag === INLINE_STRING && scanner.closing) break;
      if (scanner.tag === PHONETIC && !scanner.closing) scanner.skipElement();
      else if (scanner.tag === TEXT && !scanner.closing && !scanner.selfClosing) text += scanner.text();
    }
    return text;
  }

  private rowNumberOf(reference: string | undefined): number {
    if (reference === undefined) return this.rowNumber + 1;
    const number = Number(reference);
    if (!Number.isSafeInteger(number) || number <= this.rowNumber) {
      throw fileError(this.context.file, `sheet '${this.context.sheet}' has a row numbered '${reference}' out of order`);
    }
    return number;
  }

  /** The 0-based column of a reference such as `BC12`; without one, the column after `previous`. */
  private columnOf(reference: string | undefined, previous: number): number {
    if (reference === undefined) return previous + 1;
    let column = 0;
    let at = 0;
    for (; at < reference.length; at++) {
      const c = reference.charCodeAt(at) | 0x20; // lower case
      if (c < 0x61 || c > 0x7a) break;
      column = column * 26 + (c - 0x60);
      if (column > MAX_COLUMNS) break;
    }
    if (at === 0 || column > MAX_COLUMNS) {
      throw fileError(this.context.file, `sheet '${this.context.sheet}' has a cell reference '${reference}' outside the worksheet`);
    }
    return column - 1;
  }
}
