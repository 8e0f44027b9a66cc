import { buildZip } from './zip-builder.js';

/** A cell as a test writes it; the object forms mirror what spreadsheets store. */
export type XlsxValue =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | { readonly richText: readonly { readonly text: string; readonly font?: { readonly bold?: boolean } }[] }
  | { readonly formula: string; readonly result?: string | number | boolean | { readonly error: string } }
  | { readonly text: string; readonly hyperlink: string }
  | { readonly error: string };

/** Rows from sheet row 1 on; `undefined` leaves that row out of the sheet (a blank row). */
export type XlsxRows = readonly (readonly XlsxValue[] | undefined)[];

export interface XlsxOptions {
  /** Text cells as `inlineStr` instead of shared strings (both occur in the wild). Default false. */
  readonly inlineStrings?: boolean;
  /** Namespace prefix on every sheet element (`x:row`), as some .NET writers do. Default none. */
  readonly prefix?: string;
  /** Dates as days since 1904-01-01 (old Mac Excel) instead of 1900. Default false. */
  readonly date1904?: boolean;
}

const STYLE_DATE = 1;
const STYLE_DATE_TIME = 2;

/**
 * Writes a real XLSX workbook (the parts Excel writes: content types, relationships, workbook, styles
 * with date formats, shared strings, one worksheet per entry), so tests and benchmarks need no
 * spreadsheet library.
 */
export function buildXlsx(sheets: Readonly<Record<string, XlsxRows>>, options: XlsxOptions = {}): Buffer {
  const strings = new SharedStrings();
  const names = Object.keys(sheets);
  const sheetParts = names.map((name, i) => ({
    name: `xl/worksheets/sheet${i + 1}.xml`,
    content: Buffer.concat(sheetXml(sheets[name]!, strings, options)),
  }));
  return buildZip([
    { name: '[Content_Types].xml', content: Buffer.from(contentTypes(names.length)) },
    { name: '_rels/.rels', content: Buffer.from(PACKAGE_RELS) },
    { name: 'xl/workbook.xml', content: Buffer.from(workbookXml(names, options.date1904 === true)) },
    { name: 'xl/_rels/workbook.xml.rels', content: Buffer.from(workbookRels(names.length)) },
    { name: 'xl/styles.xml', content: Buffer.from(STYLES) },
    { name: 'xl/sharedStrings.xml', content: strings.xml() },
    ...sheetParts,
  ]);
}

/** Sheet XML in buffers of a few thousand rows, so a million-row sheet never becomes one huge string. */
function sheetXml(rows: XlsxRows, strings: SharedStrings, options: XlsxOptions): Buffer[] {
  const p = options.prefix ? `${options.prefix}:` : '';
  const ns = options.prefix ? `xmlns:${options.prefix}` : 'xmlns';
  const chunks: Buffer[] = [Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}worksheet ${ns}="${MAIN_NS}"><${p}sheetData>`)];
  let part = '';
  rows.forEach((row, r) => {
    if (row === undefined) return;
    part += `<${p}row r="${r + 1}">`;
    row.forEach((value, c) => (part += cellXml(value, `${columnName(c)}${r + 1}`, p, strings, options)));
    part += `</${p}row>`;
    if (part.length > 1 << 20) {
      chunks.push(Buffer.from(part));
      part = '';
    }
  });
  chunks.push(Buffer.from(`${part}</${p}sheetData></${p}worksheet>`));
  return chunks;
}

function cellXml(value: XlsxValue, ref: string, p: string, strings: SharedStrings, options: XlsxOptions): string {
  if (value === null || value === undefined) return '';
  const cell = (attributes: string, inner: string) => `<${p}c r="${ref}"${attributes}>${inner}</${p}c>`;
  const v = (text: string) => `<${p}v>${escapeXml(text)}</${p}v>`;
  if (typeof value === 'number') return cell('', v(String(value)));
  if (typeof value === 'boolean') return cell(' t="b"', v(value ? '1' : '0'));
  if (value instanceof Date) {
    const serial = options.date1904 ? (value.getTime() - Date.UTC(1904, 0, 1)) / 86_400_000 : value.getTime() / 86_400_000 + 25569;
    return cell(` s="${Number.isInteger(serial) ? STYLE_DATE : STYLE_DATE_TIME}"`, v(String(serial)));
  }
  if (typeof value === 'string') {
    if (options.inlineStrings) return cell(' t="inlineStr"', `<${p}is><${p}t xml:space="preserve">${escapeXml(value)}</${p}t></${p}is>`);
    return cell(' t="s"', v(String(strings.index(value))));
  }
  if ('richText' in value) return cell(' t="s"', v(String(strings.richIndex(value.richText))));
  if ('formula' in value) {
    const f = `<${p}f>${escapeXml(value.formula)}</${p}f>`;
    const result = value.result;
    if (result === undefined) return cell('', f);
    if (typeof result === 'object') return cell(' t="e"', f + v(result.error));
    if (typeof result === 'string') return cell(' t="str"', f + v(result));
    if (typeof result === 'boolean') return cell(' t="b"', f + v(result ? '1' : '0'));
    return cell('', f + v(String(result)));
  }
  if ('hyperlink' in value) return cell(' t="s"', v(String(strings.index(value.text))));
  return cell(' t="e"', v(value.error));
}

class SharedStrings {
  private readonly items: string[] = [];
  private readonly indexes = new Map<string, number>();

  index(text: string): number {
    let index = this.indexes.get(text);
    if (index === undefined) {
      index = this.items.push(`<si><t xml:space="preserve">${escapeXml(text)}</t></si>`) - 1;
      this.indexes.set(text, index);
    }
    return index;
  }

  richIndex(runs: readonly { text: string; font?: { bold?: boolean } }[]): number {
    const xml = runs.map((run) => `<r>${run.font?.bold ? '<rPr><b/></rPr>' : ''}<t xml:space="preserve">${escapeXml(run.text)}</t></r>`).join('');
    return this.items.push(`<si>${xml}<rPh sb="0" eb="1"><t>phonetic</t></rPh></si>`) - 1;
  }

  xml(): Buffer {
    const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN_NS}" count="${this.items.length}" uniqueCount="${this.items.length}">`;
    const chunks = [Buffer.from(head)];
    for (let i = 0; i < this.items.length; i += 10_000) chunks.push(Buffer.from(this.items.slice(i, i + 10_000).join('')));
    chunks.push(Buffer.from('</sst>'));
    return Buffer.concat(chunks);
  }
}

export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${MAIN_NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm:ss"/></numFmts>
<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>
<cellXfs count="3"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;

function contentTypes(sheets: number): string {
  const overrides = Array.from({ length: sheets }, (_, i) =>
    `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}</Types>`;
}

function workbookXml(names: readonly string[], date1904: boolean): string {
  const sheets = names.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr${date1904 ? ' date1904="1"' : ''}/><sheets>${sheets}</sheets></workbook>`;
}

function workbookRels(sheets: number): string {
  const rels = Array.from({ length: sheets }, (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`);
  rels.push(`<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`);
  rels.push(`<Relationship Id="rId${sheets + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>`);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`;
}
