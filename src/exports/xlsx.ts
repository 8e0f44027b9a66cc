import type { Cell, ColumnType } from '../domain/dataset-model.js';
import { zipStream, type ZipEntrySource } from './zip-stream.js';

export interface SheetSource {
  /** The sheet name: at most 31 characters, none of `[]:*?/\`. */
  readonly name: string;
  readonly columns: readonly { name: string; type: ColumnType }[];
  /** Rows at hand, or read as the sheet is written (a page of them at a time). */
  readonly rows: Iterable<readonly Cell[]> | AsyncIterable<readonly Cell[]>;
}

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// XML 1.0 allows no control characters but tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export const xmlText = (text: string) =>
  text.replace(INVALID_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** `A`, `B`, ..., `Z`, `AA`, ...: the letters of a zero-based column index. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * A cell as SpreadsheetML: numbers as numbers, booleans as booleans, everything else (strings and
 * ISO datetimes) as inline strings, which need no shared-string table (that table would have to hold
 * every string of the workbook before the first sheet could be written).
 */
function cellXml(cell: Cell, ref: string): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
  if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(cell)}</t></is></c>`;
}

const SHEET_END = '</sheetData></worksheet>';

function sheetStart(sheet: SheetSource, letters: readonly string[]): string {
  return `${XML_HEADER}<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1">${sheet.columns.map((c, i) => cellXml(c.name, `${letters[i]}1`)).join('')}</row>`;
}

/** Row `r` (1 is the header row). */
const rowXml = (row: readonly Cell[], r: number, letters: readonly string[]) => `<row r="${r}">${row.map((cell, i) => cellXml(cell, `${letters[i]}${r}`)).join('')}</row>`;

function sheetXml(sheet: SheetSource): Iterable<string> | AsyncIterable<string> {
  const letters = sheet.columns.map((_, i) => columnLetters(i));
  const rows = sheet.rows;
  if (Symbol.asyncIterator in rows) {
    return (async function* () {
      yield sheetStart(sheet, letters);
      let r = 1;
      for await (const row of rows) yield rowXml(row, ++r, letters);
      yield SHEET_END;
    })();
  }
  return (function* () {
    yield sheetStart(sheet, letters);
    let r = 1;
    for (const row of rows) yield rowXml(row, ++r, letters);
    yield SHEET_END;
  })();
}

/** A workbook with one sheet per source, streamed as its zip is produced. */
export function xlsxStream(sheets: readonly SheetSource[]): AsyncGenerator<Uint8Array> {
  const ids = sheets.map((_, i) => i + 1);
  const entries: ZipEntrySource[] = [
    {
      name: '[Content_Types].xml',
      text: [
        `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`,
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>',
        ...ids.map((id) => `<Override PartName="/xl/worksheets/sheet${id}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`),
        '</Types>',
      ],
    },
    {
      name: '_rels/.rels',
      text: [
        `${XML_HEADER}<Relationships xmlns="${PKG_REL_NS}">`,
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>`,
        '</Relationships>',
      ],
    },
    {
      name: 'xl/workbook.xml',
      text: [
        `${XML_HEADER}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>`,
        ...sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${ids[i]}" r:id="rId${ids[i]}"/>`),
        '</sheets></workbook>',
      ],
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      text: [
        `${XML_HEADER}<Relationships xmlns="${PKG_REL_NS}">`,
        ...ids.map((id) => `<Relationship Id="rId${id}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${id}.xml"/>`),
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`,
        '</Relationships>',
      ],
    },
    {
      name: 'xl/styles.xml',
      text: [
        `${XML_HEADER}<styleSheet xmlns="${MAIN_NS}">`,
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>',
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>',
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>',
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>',
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>',
        '</styleSheet>',
      ],
    },
  ];
  const sheetEntries = sheets.map((sheet, i): ZipEntrySource => ({ name: `xl/worksheets/sheet${ids[i]}.xml`, text: sheetXml(sheet) }));
  return zipStream([...entries, ...sheetEntries]);
}

/** A valid, unique sheet name for a table name (Excel allows 31 characters, none of `[]:*?/\`). */
export function sheetNames(tables: readonly string[]): string[] {
  const taken = new Set<string>();
  return tables.map((table) => {
    const base = table.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet';
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 1)}~${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
