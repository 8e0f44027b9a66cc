import { formatBytes } from '../format-bytes.js';
import type { ShapeFailure, ShapeGuard } from './shape-guard.js';

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Checks that no CSV record (a line, or several while a quote is open) is longer than `max` bytes. Quotes
 * toggle whether a line end ends the record (`""` toggles twice), whatever the delimiter; the byte searches
 * are native and each byte is looked at once, so a 1 GB line or a quote never closed fails after `max`
 * bytes, in a time linear in them.
 */
export class CsvRecordGuard implements ShapeGuard {
  private inQuote = false;
  private recordBytes = 0;
  /** 1-based line of the current record's start, and the line the scan is on. */
  private recordLine = 1;
  private line = 1;

  constructor(
    private readonly max: number,
    private readonly fail: ShapeFailure,
  ) {}

  feed(bytes: Uint8Array): void {
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    // Where the next quote and line end of this piece are (-1: none left); searched again only once passed.
    let quoteAt = -2;
    let lineEndAt = -2;
    while (at < data.length) {
      if (quoteAt !== -1 && quoteAt < at) quoteAt = data.indexOf(QUOTE, at);
      if (this.inQuote) {
        const end = quoteAt < 0 ? data.length : quoteAt + 1;
        this.line += countLineEnds(data, at, end);
        this.take(end - at);
        if (quoteAt >= 0) this.inQuote = false;
        at = end;
        continue;
      }
      if (lineEndAt !== -1 && lineEndAt < at) lineEndAt = data.indexOf(LF, at);
      if (quoteAt >= 0 && (lineEndAt < 0 || quoteAt < lineEndAt)) {
        this.take(quoteAt + 1 - at);
        this.inQuote = true;
        at = quoteAt + 1;
      } else if (lineEndAt >= 0) {
        this.take(lineEndAt - at);
        this.recordBytes = 0;
        this.recordLine = ++this.line;
        at = lineEndAt + 1;
      } else {
        this.take(data.length - at);
        at = data.length;
      }
    }
  }

  private take(bytes: number): void {
    this.recordBytes += bytes;
    if (this.recordBytes <= this.max) return;
    const limit = `the limit of ${formatBytes(this.max)} (upload_max_field)`;
    throw this.fail(
      `line ${this.recordLine}`,
      this.inQuote ? `a quoted field opened in this record is not closed within ${limit}` : `a CSV record is longer than ${limit}`,
    );
  }
}

function countLineEnds(data: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = data.indexOf(LF, from); at >= 0 && at < to; at = data.indexOf(LF, at + 1)) count++;
  return count;
}
