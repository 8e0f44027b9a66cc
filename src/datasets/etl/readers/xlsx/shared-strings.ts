import { etlErrors } from '../../error-factories.js';
import { NEED_MORE, type PieceQueue } from './entry-text.js';
import { KEPT_TOO_LONG, PHONETIC, STRING_ITEM, TEXT, XmlScanner } from './xml-scanner.js';

/**
 * The shared string table: text cells refer to it by index. Read piece by piece as the part inflates;
 * its size is bounded by the upload's inflate budget. Rich text is its runs' text joined; phonetic
 * reading aids (`<rPh>`) are not part of the value.
 */
export async function readSharedStrings(queue: PieceQueue, file: string, part: string, maxFieldBytes: number): Promise<string[]> {
  const scanner = new XmlScanner(() => queue.take(), part, maxFieldBytes);
  const reader = new SharedStringsReader(scanner);
  try {
    // At least as much new text as is kept: see `XmlScanner` on linear work.
    while (!reader.readAvailable()) await queue.fill(scanner.keptChars);
  } catch (err) {
    if (err !== KEPT_TOO_LONG) throw err;
    throw etlErrors.sharedStringTooLong(file, reader.strings.length + 1, maxFieldBytes);
  }
  return reader.strings;
}

class SharedStringsReader {
  readonly strings: string[] = [];

  constructor(private readonly scanner: XmlScanner) {}

  /** Reads every item the text at hand holds; true at the end of the part, false when it needs more. */
  readAvailable(): boolean {
    try {
      for (;;) {
        this.scanner.mark();
        if (!this.readItem()) return true;
      }
    } catch (err) {
      if (err !== NEED_MORE) throw err;
      this.scanner.rewind();
      return false;
    }
  }

  /** Reads up to the end of the next `<si>`; false when there is none. */
  private readItem(): boolean {
    const { scanner } = this;
    while (scanner.next()) {
      if (scanner.tag !== STRING_ITEM || scanner.closing) continue;
      if (scanner.selfClosing) {
        this.strings.push('');
        return true;
      }
      let item = '';
      while (scanner.next()) {
        const tag: number = scanner.tag;
        if (tag === STRING_ITEM && scanner.closing) break;
        if (scanner.closing || scanner.selfClosing) continue;
        if (tag === TEXT) item += scanner.text();
        else if (tag === PHONETIC) scanner.skipElement();
      }
      this.strings.push(item);
      return true;
    }
    return false;
  }
}
