import { Zip, ZipDeflate } from 'fflate';
import { batched, batchedAsync } from './chunks.js';

export interface ZipEntrySource {
  readonly name: string;
  /** The entry's text, in pieces produced on demand (asynchronously when they are read as they go). */
  readonly text: Iterable<string> | AsyncIterable<string>;
}

const isAsync = (text: ZipEntrySource['text']): text is AsyncIterable<string> => Symbol.asyncIterator in text;

/**
 * A zip archive of text entries, produced piece by piece with fflate's streaming `Zip`: each batch of
 * an entry's text is deflated and handed on before the next is produced, so memory holds one batch
 * and its compressed bytes, whatever the archive's size. Pull-driven: a slow client slows production.
 */
export async function* zipStream(entries: Iterable<ZipEntrySource>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else out.push(chunk);
  });
  const encoder = new TextEncoder();
  const drain = function* () {
    if (failure) throw failure;
    while (out.length > 0) yield out.shift()!;
  };
  for (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for await (const piece of isAsync(entry.text) ? batchedAsync(entry.text) : batched(entry.text)) {
      file.push(encoder.encode(piece));
      yield* drain();
      // Let the event loop breathe between batches of a long export.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
