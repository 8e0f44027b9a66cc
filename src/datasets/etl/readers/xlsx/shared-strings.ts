import { PHONETIC, STRING_ITEM, TEXT, type XmlScanner } from './xml-scanner.js';

/**
 * The shared string table: text cells refer to it by index. Read piece by piece; its size is bounded by
 * the upload's inflate budget, which the scanner's source charges. Rich text is its runs' text joined;
 * phonetic reading aids (`<rPh>`) are not part of the value.
 */
export function readSharedStrings(scanner: XmlScanner): string[] {
  const strings: string[] = [];
  let item = '';
  let inItem = false;
  while (scanner.next()) {
    switch (scanner.tag) {
      case STRING_ITEM:
        if (scanner.closing) {
          strings.push(item);
          inItem = false;
        } else if (scanner.selfClosing) {
          strings.push('');
        } else {
          item = '';
          inItem = true;
        }
        break;
      case TEXT:
        if (inItem && !scanner.closing && !scanner.selfClosing) item += scanner.text();
        break;
      case PHONETIC:
        if (!scanner.closing) scanner.skipElement();
        break;
    }
  }
  return strings;
}
