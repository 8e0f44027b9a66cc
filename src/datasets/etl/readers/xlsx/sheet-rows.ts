import { etlErrors } from '../../error-factories.js';
import { BadCell, type RawCell } from '../reader.js';
import { excelSerialToDate, type CellStyles } from './cell-styles.js';
import { NEED_MORE } from './entry-text.js';
import { CELL, FORMULA, INLINE_STRING, KEPT_TOO_LONG, PHONETIC, ROW, SHEET_DATA, TEXT, VALUE, type XmlScanner } from './xml-scanner.js';

export const ROW_READY = 0;
export const SHEET_END = 1;
export const NEED_TEXT = 2;
export type RowState = typeof ROW_READY | typeof SHEET_END | typeof NEED_TEXT;

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
  /** The scanner's `maxKept`, for the message when a row passes it. */
  readonly maxFieldBytes: number;
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
  /** Whether the current row's tag was read (so an overlong text is inside that row, not after it). */
  private inRow = false;
  /** Type and style of the cell being read. */
  private type = 0;
  private style = 0;

  constructor(
    private readonly scanner: XmlScanner,
    private readonly context: SheetContext,
  ) {}

  /**
   * Moves to the next row present in the sheet: `ROW_READY` (see `rowNumber` and `cells`), `SHEET_END`,
   * or `NEED_TEXT` when the inflated text at hand ends inside the row (it is read again after a refill).
   */
  next(): RowState {
    if (this.ended) return SHEET_END;
    const previous = this.rowNumber;
    this.scanner.mark();
    this.inRow = false;
    try {
      return this.readRow() ? ROW_READY : SHEET_END;
    } catch (err) {
      if (err === KEPT_TOO_LONG) throw this.tooLong(previous);
      if (err !== NEED_MORE) throw err;
      this.scanner.rewind();
      this.rowNumber = previous;
      return NEED_TEXT;
    }
  }

  /** The located 400 for a row (or a run of text between rows) longer than the limit. */
  private tooLong(previous: number) {
    const { file, sheet, maxFieldBytes } = this.context;
    return this.inRow ? etlErrors.sheetRowTooLong(file, sheet, this.rowNumber, maxFieldBytes) : etlErrors.sheetTextTooLong(file, sheet, previous, maxFieldBytes);
  }

  private readRow(): boolean {
    const { scanner } = this;
    while (!this.ended && scanner.next()) {
      if (scanner.tag === ROW && !scanner.closing) {
        this.rowNumber = this.rowNumberOf(scanner.attr('r'));
        this.inRow = true;
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
      column = this.readCellAttributes(column);
      if (scanner.selfClosing) continue;
      const value = this.readCellValue();
      if (value !== null) {
        while (cells.length < column) cells.push(null);
        cells[column] = value;
      }
    }
  }

  /**
   * Reads the `<c>` tag's `r`, `t` and `s` attributes in place (no strings made: this runs for every
   * cell); returns the cell's column and sets `type` and `style`.
   */
  private readCellAttributes(previous: number): number {
    const { buffer: buf, attributesTo: end } = this.scanner;
    let at = this.scanner.attributesFrom;
    let column = previous + 1;
    this.type = NUMBER;
    this.style = 0;
    for (;;) {
      const equals = buf.indexOf('=', at);
      if (equals < 0 || equals >= end) return column;
      let nameStart = at;
      while (buf.charCodeAt(nameStart) <= 0x20) nameStart++;
      let valueStart = equals + 1;
      while (buf.charCodeAt(valueStart) <= 0x20) valueStart++;
      const quote = buf.charCodeAt(valueStart++);
      const valueEnd = buf.indexOf(quote === 0x27 ? "'" : '"', valueStart);
      if (valueEnd < 0 || valueEnd > end) return column;
      const nameLength = trimmedEnd(buf, equals) - nameStart;
      if (nameLength === 1) {
        const name = buf.charCodeAt(nameStart);
        if (name === 0x72 /* r */) column = this.columnOf(buf, valueStart, valueEnd);
        else if (name === 0x74 /* t */) this.type = typeOf(buf, valueStart, valueEnd);
        else if (name === 0x73 /* s */) this.style = digitsValue(buf, valueStart, valueEnd);
      }
      at = valueEnd + 1;
    }
  }

  /** Reads the cell's children up to `</c>` and interprets its value by its type. */
  private readCellValue(): RawCell {
    const { scanner } = this;
    let text: string | undefined;
    while (scanner.next()) {
      const { tag } = scanner;
      if (tag === CELL && scanner.closing) break;
      if (scanner.closing || scanner.selfClosing) continue;
      if (tag === VALUE) {
        text = this.type === NUMBER || this.type === SHARED ? scanner.plainText() : scanner.text();
        // The common `<v>...</v></c>` ends here without two more trips through the scanner.
        if (scanner.skipExactly('</v>') && scanner.skipExactly('</c>')) break;
      }
      else if (tag === INLINE_STRING) text = this.readInlineString();
      else if (tag === FORMULA) scanner.skipElement();
    }
    if (text === undefined) return null;
    switch (this.type) {
      case SHARED:
        return this.context.sharedStrings[Number(text)] ?? MISSING_SHARED_STRING;
      case TEXT_VALUE:
        return text;
      case BOOLEAN:
        return text === '1' || text === 'true';
      case ERROR:
        return new BadCell(`the Excel error ${text}`);
      default:
        return this.number(text, this.style);
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
      throw etlErrors.sheetRowOutOfOrder(this.context.file, this.context.sheet, reference);
    }
    return number;
  }

  /** The 0-based column of a reference such as `BC12` in `buf[from, to)`. */
  private columnOf(buf: string, from: number, to: number): number {
    let column = 0;
    let at = from;
    for (; at < to; at++) {
      const c = buf.charCodeAt(at) | 0x20; // lower case
      if (c < 0x61 || c > 0x7a) break;
      column = column * 26 + (c - 0x60);
      if (column > MAX_COLUMNS) break;
    }
    if (at === from || column > MAX_COLUMNS) {
      throw etlErrors.sheetCellOutside(this.context.file, this.context.sheet, buf.slice(from, to));
    }
    return column - 1;
  }
}

/** Cell types (`t`): how the text of `<v>` (or `<is>`) is read. */
const NUMBER = 0;
const SHARED = 1;
const TEXT_VALUE = 2; // str (a formula's text), inlineStr, d (ISO date text)
const BOOLEAN = 3;
const ERROR = 4;

function typeOf(buf: string, from: number, to: number): number {
  const first = buf.charCodeAt(from);
  if (to - from === 1) return first === 0x73 ? SHARED : first === 0x62 ? BOOLEAN : first === 0x65 ? ERROR : first === 0x64 ? TEXT_VALUE : NUMBER;
  return first === 0x73 || first === 0x69 ? TEXT_VALUE : NUMBER; // str, inlineStr
}

function digitsValue(buf: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) {
    const digit = buf.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) return 0;
    value = value * 10 + digit;
  }
  return value;
}

function trimmedEnd(buf: string, end: number): number {
  let at = end;
  while (buf.charCodeAt(at - 1) <= 0x20) at--;
  return at;
}
