/** Text of XML content and attribute values, as OOXML writes it. */

const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** OOXML escapes characters XML cannot hold (a carriage return, control characters) as `_xHHHH_`. */
const OOXML_ESCAPE = /_x([0-9a-fA-F]{4})_/g;

/** Resolves character references and OOXML `_xHHHH_` escapes; text without either is returned as is. */
export function decodeXmlText(raw: string): string {
  let text = raw;
  if (text.includes('&')) text = text.replace(ENTITY, decodeEntity);
  if (text.includes('_x')) text = text.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text;
}

function decodeEntity(whole: string, name: string | undefined, decimal: string | undefined, hex: string | undefined): string {
  if (name !== undefined) return NAMED[name]!;
  const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
}

/** An element of a small XML part: its local name (prefix dropped), attributes by local name, and kind. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly closing: boolean;
  readonly selfClosing: boolean;
}

const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Every element tag of a small, whole XML part (a workbook's sheet list, relationships, styles), in
 * order. Sheets and shared strings, which may be large, go through `XmlScanner` instead.
 */
export function* elements(xml: string): Generator<XmlElement> {
  for (const match of xml.matchAll(TAG)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[3] ?? '').matchAll(ATTRIBUTE)) {
      attributes.set(localName(attribute[1]!), decodeXmlText(attribute[2] ?? attribute[3] ?? ''));
    }
    yield { name: localName(match[2]!), attributes, closing: match[1] === '/', selfClosing: match[4] === '/' };
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}
