import { elements } from './xml-text.js';

/**
 * Which cell styles show numbers as dates. Excel stores a date as a serial day number; only the cell's
 * number format (through its style index `s`) says it is one.
 */
export class CellStyles {
  constructor(private readonly dateStyles: readonly boolean[]) {}

  static none(): CellStyles {
    return new CellStyles([]);
  }

  /** Reads `cellXfs` and custom `numFmts` from the styles part. */
  static parse(xml: string): CellStyles {
    const customFormats = new Map<string, string>();
    const dateStyles: boolean[] = [];
    let inCellFormats = false;
    for (const element of elements(xml)) {
      if (element.name === 'cellXfs') {
        inCellFormats = !element.closing && !element.selfClosing;
      } else if (element.name === 'numFmt' && !element.closing) {
        customFormats.set(element.attributes.get('numFmtId') ?? '', element.attributes.get('formatCode') ?? '');
      } else if (element.name === 'xf' && inCellFormats && !element.closing) {
        const id = element.attributes.get('numFmtId') ?? '0';
        const custom = customFormats.get(id);
        dateStyles.push(custom === undefined ? isBuiltInDateFormat(Number(id)) : isDateFormatCode(custom));
      }
    }
    return new CellStyles(dateStyles);
  }

  isDate(styleIndex: number): boolean {
    return this.dateStyles[styleIndex] === true;
  }
}

/** Built-in number formats that are dates or times (ECMA-376 18.8.30, with the East Asian ones). */
function isBuiltInDateFormat(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/** A custom format is a date when, outside quoted text, escapes and `[...]` sections, it has date or time letters. */
export function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '');
  // Only the first section (positive numbers) decides; `General` and number patterns have none of these letters.
  const first = bare.split(';')[0] ?? '';
  return /[dmyhs]/i.test(first) && !/^general$/i.test(first.trim());
}

const MS_PER_DAY = 86_400_000;
/** Day 0 of the 1900 system is 1899-12-30 once Excel's phantom 1900-02-29 is accounted for. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel serial date as a Date at that wall-clock time in UTC (Excel dates carry no zone), rounded to
 * the millisecond. Serials before 1900-03-01 skip the phantom leap day Excel counts.
 */
export function excelSerialToDate(serial: number, date1904: boolean): Date {
  if (date1904) return new Date(EPOCH_1904 + Math.round(serial * MS_PER_DAY));
  const days = serial < 60 ? serial + 1 : serial;
  return new Date(EPOCH_1900 + Math.round(days * MS_PER_DAY));
}
