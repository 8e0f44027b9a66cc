import { createInflateRaw } from 'node:zlib';
import { etlErrors } from '../../error-factories.js';
import { EtlInputError } from '../../errors.js';
import { entryData, ZipFormatError, type ZipEntry } from '../../zip-directory.js';
import type { InflateBudget } from '../inflate-budget.js';

const STORED = 0;
/**
 * Output piece size: big enough that per-piece costs vanish, and below V8's large-object size (128 KB):
 * a string that large is allocated and freed page by page outside the young generation, which made
 * decoding 256 KB pieces seven times slower than 64 KB ones (a 1M-row sheet: about 1 s against 0.15 s).
 */
const PIECE_BYTES = 64 * 1024;

/**
 * The text of one zip entry, inflated (natively, off the JavaScript thread) and decoded piece by piece,
 * so that a sheet is scanned without ever being whole in memory. Every inflated byte is charged to the
 * upload's budget and checked against the size the entry declares; either stops the inflater at once.
 */
export async function* entryText(file: string, data: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<string> {
  const compressed = entryData(data, entry);
  const decoder = new TextDecoder('utf-8');
  let inflated = 0;
  const accept = (chunk: Uint8Array): string => {
    inflated += chunk.length;
    if (inflated > entry.uncompressedSize) {
      throw etlErrors.zipEntryInflatesPastSize(file, entry.name, entry.uncompressedSize);
    }
    budget.charge(file, chunk.length);
    return decoder.decode(chunk, { stream: true });
  };
  if (entry.method === STORED) {
    for (let at = 0; at < compressed.length; at += PIECE_BYTES) yield accept(compressed.subarray(at, at + PIECE_BYTES));
  } else {
    const inflater = createInflateRaw({ chunkSize: PIECE_BYTES });
    inflater.end(compressed);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        const text = accept(chunk);
        if (text !== '') yield text;
      }
    } catch (err) {
      if (err instanceof EtlInputError) throw err;
      throw new ZipFormatError(`zip entry '${entry.name}' is corrupt`);
    } finally {
      inflater.destroy();
    }
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/** The whole text of a small part (the sheet list, relationships, styles). */
export async function entryTextAll(file: string, data: Buffer, entry: ZipEntry, budget: InflateBudget): Promise<string> {
  let text = '';
  for await (const piece of entryText(file, data, entry, budget)) text += piece;
  return text;
}

/**
 * Thrown by `PieceQueue.take` when the scanner needs text that has not been inflated yet. One instance,
 * caught by identity: it is thrown often, and building it once captures no stack per throw.
 */
export const NEED_MORE = new Error('the XLSX scanner needs more inflated text');

/**
 * Connects the asynchronous inflater to the synchronous scanner: the reader pushes pieces as they come;
 * the scanner takes them, and when it runs dry before the end it gets `NEED_MORE` thrown, rewinds to
 * its last mark and waits for the reader to push again.
 */
export class PieceQueue {
  private pieces: string[] = [];
  private queuedChars = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<string>;

  constructor(source: AsyncIterable<string>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /**
   * For the scanner: everything queued as one text (so that a rescan after a rewind is one pass over
   * one string, not one per piece), `undefined` at the real end, or `NEED_MORE` thrown.
   */
  take(): string | undefined {
    if (this.pieces.length === 0) {
      if (this.ended) return undefined;
      throw NEED_MORE;
    }
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces = [];
    this.queuedChars = 0;
    return text;
  }

  /**
   * Inflates pieces into the queue until it holds at least `minChars` characters (at least one piece),
   * or marks the end. A reader passes what its scanner keeps (`XmlScanner.keptChars`), so that the text
   * it scans again after a rewind at least doubles each time: linear work whatever the row's length.
   */
  async fill(minChars = 0): Promise<void> {
    do {
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        return;
      }
      this.pieces.push(next.value);
      this.queuedChars += next.value.length;
    } while (this.queuedChars < minChars);
  }

  /** Stops the inflater early (a reader that does not need the rest). */
  async close(): Promise<void> {
    await this.iterator.return?.();
  }
}
