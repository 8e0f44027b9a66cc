import { Inflate } from 'fflate';
import { EtlInputError, fileError } from '../../errors.js';
import { entryData, ZipFormatError, type ZipEntry } from '../../zip-directory.js';
import type { InflateBudget } from '../inflate-budget.js';

/** Compressed bytes handed to the inflater at a time: at most ~32 MB come out of one push (deflate tops at ~1032:1). */
const COMPRESSED_SLICE = 32 * 1024;
const STORED = 0;

/**
 * The text of one zip entry, inflated and decoded piece by piece as the caller pulls it, so a sheet is
 * scanned without ever being whole in memory. Every inflated byte is charged to the upload's budget and
 * checked against the size the entry declares.
 */
export class EntryText {
  private readonly compressed: Buffer;
  private readonly inflater: Inflate | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly pending: string[] = [];
  private offset = 0;
  private inflated = 0;
  private finished = false;

  constructor(
    private readonly file: string,
    data: Buffer,
    private readonly entry: ZipEntry,
    private readonly budget: InflateBudget,
  ) {
    this.compressed = entryData(data, entry);
    if (entry.method !== STORED) this.inflater = new Inflate((chunk) => this.accept(chunk));
  }

  /** The next piece of text (never empty), or `undefined` after the last. */
  next(): string | undefined {
    while (this.pending.length === 0 && !this.finished) this.pushMore();
    return this.pending.shift();
  }

  /** The whole text; for the small parts of a workbook (its sheet list, relationships, styles). */
  readAll(): string {
    let text = '';
    for (let piece = this.next(); piece !== undefined; piece = this.next()) text += piece;
    return text;
  }

  private pushMore(): void {
    const end = Math.min(this.offset + COMPRESSED_SLICE, this.compressed.length);
    const slice = this.compressed.subarray(this.offset, end);
    const final = end >= this.compressed.length;
    this.offset = end;
    if (this.inflater === undefined) {
      this.accept(slice);
    } else {
      try {
        this.inflater.push(slice, final);
      } catch (err) {
        if (err instanceof EtlInputError) throw err;
        throw new ZipFormatError(`zip entry '${this.entry.name}' is corrupt`);
      }
    }
    if (final) {
      this.finished = true;
      const rest = this.decoder.decode();
      if (rest !== '') this.pending.push(rest);
    }
  }

  private accept(chunk: Uint8Array): void {
    this.inflated += chunk.length;
    if (this.inflated > this.entry.uncompressedSize) {
      throw fileError(this.file, `zip entry '${this.entry.name}' inflates to more than the ${this.entry.uncompressedSize} bytes it declares (a zip bomb?)`);
    }
    this.budget.charge(this.file, chunk.length);
    const text = this.decoder.decode(chunk, { stream: true });
    if (text !== '') this.pending.push(text);
  }
}
