import { ZipFormatError } from '../../zip-directory.js';
import { decodeXmlText } from './xml-text.js';

/** The elements of sheets and shared strings the readers act on; every other element is `OTHER`. */
export const OTHER = 0;
export const ROW = 1;
export const CELL = 2; // <c>
export const VALUE = 3; // <v>
export const FORMULA = 4; // <f>
export const INLINE_STRING = 5; // <is>
export const TEXT = 6; // <t>
export const PHONETIC = 7; // <rPh>: reading aids for East Asian text, not part of the value
export const STRING_ITEM = 8; // <si>
export const SHEET_DATA = 9;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const COLON = 0x3a;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/**
 * Thrown when the text a reader keeps (from its mark on: a row, a shared string, or a run of text with no
 * tag) would pass the scanner's `maxKept`. One instance, caught by identity like `NEED_MORE`; the reader
 * turns it into a located error (file, sheet, row).
 */
export const KEPT_TOO_LONG = new Error('the XLSX scanner would keep more text than its limit');

/**
 * A forward-only scanner over XML text that arrives in pieces (see `EntryText`): it stops at each
 * element tag, says which of the few elements above it is (namespace prefixes ignored), reads an
 * attribute on demand, and reads text content. Only the text from the mark (or the unread tail) on is
 * kept, and never more than `maxKept` characters, so memory stays bounded whatever the part's size. It
 * does not validate XML: a reader of known parts, not a parser.
 *
 * Linear work: a reader that runs dry rewinds to its mark and scans the kept text again, so the source
 * hands over everything queued at once (`PieceQueue.take`) and the reader queues at least as much new
 * text as it keeps before trying again (`keptChars`): each rescan is then of a text at least twice as
 * long as the last, and all rescans together cost at most about twice the text's length.
 */
export class XmlScanner {
  private buf = '';
  private pos = 0;
  private exhausted = false;

  /** The element of the last tag `next()` stopped at. */
  tag: number = OTHER;
  closing = false;
  selfClosing = false;
  private attrStart = 0;
  private attrEnd = 0;
  /** Where `rewind()` returns to; text from here on is kept across refills. -1: no mark. */
  private markAt = -1;

  constructor(
    private readonly source: () => string | undefined,
    private readonly part: string,
    /** Most characters kept across refills (the `maxFieldBytes` limit); past it `KEPT_TOO_LONG` is thrown. */
    private readonly maxKept: number = Number.MAX_SAFE_INTEGER,
  ) {}

  /** Characters kept for the unit being read (from the mark, or from the unread position). */
  get keptChars(): number {
    return this.buf.length - (this.markAt >= 0 && this.markAt < this.pos ? this.markAt : this.pos);
  }

  /** Advances to the next element tag; false at the end of the text. */
  next(): boolean {
    for (;;) {
      const lt = this.buf.indexOf('<', this.pos);
      if (lt < 0) {
        this.pos = this.buf.length;
        if (!this.refillKeeping()) return false;
        continue;
      }
      this.pos = lt;
      const next = this.buf.charCodeAt(lt + 1);
      if (Number.isNaN(next)) {
        // The piece ends right after `<`: what kind of tag it opens is in the next piece.
        if (!this.refillKeeping()) throw this.truncated();
        continue;
      }
      if (next === BANG || next === QUESTION) {
        if (!this.skipSpecial()) throw this.truncated();
        continue;
      }
      const nameEnd = this.nameEnd(lt);
      // Known elements never hold `>` in attribute values (references, style numbers, type codes), so
      // a plain search finds their end; other tags may, and are scanned quote by quote.
      const gt = nameEnd < 0 ? -1 : this.tag === OTHER ? this.tagEnd(nameEnd) : this.buf.indexOf('>', nameEnd);
      if (gt < 0) {
        if (!this.refillKeeping()) throw this.truncated();
        continue;
      }
      this.selfClosing = this.buf.charCodeAt(gt - 1) === SLASH;
      this.attrStart = nameEnd;
      this.attrEnd = this.selfClosing ? gt - 1 : gt;
      this.pos = gt + 1;
      return true;
    }
  }

  /**
   * Text content from here to the next tag (character references and CDATA sections resolved); call
   * right after an opening tag. The scanner then stands at the following tag, normally the closing one.
   */
  text(): string {
    let out = '';
    for (;;) {
      const lt = this.buf.indexOf('<', this.pos);
      if (lt < 0) {
        if (!this.refillKeeping()) throw this.truncated();
        continue;
      }
      if (this.buf.startsWith('<![CDATA[', lt)) {
        const end = this.buf.indexOf(']]>', lt + 9);
        if (end < 0) {
          if (!this.refillKeeping()) throw this.truncated();
          continue;
        }
        out += decodeXmlText(this.buf.slice(this.pos, lt)) + this.buf.slice(lt + 9, end);
        this.pos = end + 3;
        continue;
      }
      if (lt + 9 > this.buf.length && !this.exhausted && '<![CDATA['.startsWith(this.buf.slice(lt))) {
        this.refillKeeping();
        continue;
      }
      const raw = this.buf.slice(this.pos, lt);
      this.pos = lt;
      return out === '' ? decodeXmlText(raw) : out + decodeXmlText(raw);
    }
  }

  /**
   * Text content up to the next `<` without resolving references: for values that are numbers or
   * indexes, which hold none. Falls back to `text()` when the content is not plain.
   */
  plainText(): string {
    const lt = this.buf.indexOf('<', this.pos);
    if (lt < 0 || this.buf.charCodeAt(lt + 1) !== SLASH) return this.text();
    const raw = this.buf.slice(this.pos, lt);
    this.pos = lt;
    return raw.includes('&') ? decodeXmlText(raw) : raw;
  }

  /** Steps over `tag` (such as `</v>`) when it comes next verbatim; false (nothing consumed) otherwise. */
  skipExactly(tag: string): boolean {
    if (!this.buf.startsWith(tag, this.pos)) return false;
    this.pos += tag.length;
    return true;
  }

  /** Skips to the end of the element just opened, past everything nested in it. */
  skipElement(): void {
    if (this.selfClosing) return;
    let depth = 1;
    while (depth > 0 && this.next()) {
      if (this.selfClosing) continue;
      depth += this.closing ? -1 : 1;
    }
  }

  /** The value of attribute `name` (no prefix) of the last tag, or `undefined`. */
  attr(name: string): string | undefined {
    const { buf } = this;
    let from = this.attrStart;
    for (;;) {
      const at = buf.indexOf(name, from);
      if (at < 0 || at >= this.attrEnd) return undefined;
      from = at + name.length;
      const before = buf.charCodeAt(at - 1);
      if (before > 0x20 || buf.charCodeAt(from) !== 0x3d /* = */) continue;
      const quote = buf.charCodeAt(from + 1);
      if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) continue;
      const end = buf.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", from + 2);
      const raw = buf.slice(from + 2, end);
      return raw.includes('&') ? decodeXmlText(raw) : raw;
    }
  }

  /** Reads the name of the tag opened at `lt` (setting `tag` and `closing`); its end, or -1 if not here yet. */
  private nameEnd(lt: number): number {
    const { buf } = this;
    let at = lt + 1;
    this.closing = buf.charCodeAt(at) === SLASH;
    if (this.closing) at++;
    let nameStart = at;
    for (; at < buf.length; at++) {
      const c = buf.charCodeAt(at);
      if (c <= 0x20 || c === SLASH || c === GT) {
        this.tag = elementOf(buf, nameStart, at);
        return at;
      }
      if (c === COLON) nameStart = at + 1;
    }
    return -1;
  }

  /** The text holding the last tag, and where its attributes lie in it (for readers that parse them in place). */
  get buffer(): string {
    return this.buf;
  }

  get attributesFrom(): number {
    return this.attrStart;
  }

  get attributesTo(): number {
    return this.attrEnd;
  }

  /** Index of the `>` ending a tag whose attributes start at `from`, skipping quoted values; -1 if not here yet. */
  private tagEnd(from: number): number {
    const { buf } = this;
    let quote = 0;
    for (let at = from; at < buf.length; at++) {
      const c = buf.charCodeAt(at);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === GT) {
        return at;
      } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        quote = c;
      } else if (c === LT) {
        throw new ZipFormatError(`${this.part} is not well-formed XML`);
      }
    }
    return -1;
  }

  /** Skips a comment, processing instruction, declaration or stray CDATA at `pos`; false when it never ends. */
  private skipSpecial(): boolean {
    for (;;) {
      const { buf, pos } = this;
      // Enough characters to tell `<!--` and `<![CDATA[` apart from a declaration.
      if (buf.length - pos < 9 && this.refillKeeping()) continue;
      const terminator = buf.startsWith('<!--', pos) ? '-->' : buf.startsWith('<![CDATA[', pos) ? ']]>' : buf.charCodeAt(pos + 1) === QUESTION ? '?>' : '>';
      const end = buf.indexOf(terminator, pos + 2);
      if (end >= 0) {
        this.pos = end + terminator.length;
        return true;
      }
      if (!this.refillKeeping()) return false;
    }
  }

  /** Remembers the current position, so that a reader can start a unit (a row, a string) over. */
  mark(): void {
    this.markAt = this.pos;
  }

  /** Back to the mark: the source ran dry in the middle of a unit, which is read again once it has more. */
  rewind(): void {
    if (this.markAt >= 0) this.pos = this.markAt;
  }

  /** Appends the next piece, keeping the text from `pos` (and from the mark) on; false when there is none. */
  private refillKeeping(): boolean {
    if (this.exhausted) return false;
    const piece = this.source();
    if (piece === undefined) {
      this.exhausted = true;
      return false;
    }
    const keepFrom = this.markAt >= 0 && this.markAt < this.pos ? this.markAt : this.pos;
    if (this.buf.length - keepFrom + piece.length > this.maxKept) throw KEPT_TOO_LONG;
    this.buf = this.buf.slice(keepFrom) + piece;
    this.pos -= keepFrom;
    if (this.markAt >= 0) this.markAt -= keepFrom;
    return true;
  }

  private truncated(): ZipFormatError {
    return new ZipFormatError(`${this.part} ends in the middle of an element`);
  }
}

/** Which element the name in `buf[start, end)` is, compared in place (no string is made per tag). */
function elementOf(buf: string, start: number, end: number): number {
  const c = buf.charCodeAt(start);
  switch (end - start) {
    case 1:
      return c === 0x63 ? CELL : c === 0x76 ? VALUE : c === 0x74 ? TEXT : c === 0x66 ? FORMULA : OTHER;
    case 2:
      if (c === 0x69 && buf.charCodeAt(start + 1) === 0x73) return INLINE_STRING;
      return c === 0x73 && buf.charCodeAt(start + 1) === 0x69 ? STRING_ITEM : OTHER;
    case 3:
      if (buf.startsWith('row', start)) return ROW;
      return buf.startsWith('rPh', start) ? PHONETIC : OTHER;
    case 9:
      return buf.startsWith('sheetData', start) ? SHEET_DATA : OTHER;
    default:
      return OTHER;
  }
}
