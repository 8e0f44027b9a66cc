import { hash } from 'node:crypto';
import type { Column } from '../domain/dataset-model.js';

/**
 * How a table's JSON text is cut into content-addressed chunks of rows (see `src/store/table-contents.ts`).
 *
 * A table's text is `head` + its rows' texts joined by commas + `tail`; the rows are cut into chunks at
 * boundaries the rows choose themselves (content-defined): whether a row ends a chunk depends on its own
 * text only, never on where it stands. Inserting, deleting or changing a row then moves no boundary but
 * its own, so every other chunk is the same chunk as before and is stored once.
 */

export interface ChunkSizes {
  /**
   * A row ends its chunk with a chance of its length over this (certainly when longer), so a chunk holds
   * about this many characters: about 2 rows of the warehouse's 65-character `sku_data` rows, one row
   * when rows are longer, more when they are narrow. Small, because a scattered change rewrites every
   * chunk it touches whole; not smaller, because each chunk costs an index entry and a row to store.
   */
  readonly targetChars: number;
  /** A chunk ends after this many rows even without a boundary (rows that all begin alike). */
  readonly maxRows: number;
  /** Characters of a row's beginning its boundary depends on: its key, usually, not the values that change. */
  readonly hashedChars: number;
}

/** Measured in bench/dataset-versions-storage.bench.ts (docs/benchmarks.md, "Dataset versions"). */
export const CHUNK_SIZES: ChunkSizes = { targetChars: 128, maxRows: 64, hashedChars: 32 };

/** A run of rows stored once by the SHA-256 of its text. */
export interface Chunk {
  /** The rows' JSON texts joined by commas (no brackets). */
  readonly text: string;
  readonly rows: number;
  readonly hash: string;
}

export interface ChunkedTable {
  /** The table's text before its first row: `{"columns":[...],"rows":[` for a table as `JSON.stringify` writes it. */
  readonly head: string;
  /** The table's text after its last row: `]}`. */
  readonly tail: string;
  readonly chunks: readonly Chunk[];
}

/**
 * The hash a chunk is stored under: the SHA-256 of its text, its first 22 base64url characters (132
 * bits: no collision is to be expected below 2^66 chunks), short because every chunk's row and index
 * entry hold it.
 */
export function chunkHash(text: string): string {
  // The one-shot `hash` makes no Hash object per chunk: a 100k-row table has some 50,000 of them.
  return hash('sha256', text, 'base64url').slice(0, 22);
}

/** The table's text cut into its head, its chunks of rows and its tail; `head + chunks joined by ',' + tail` is `json`. */
export function chunkTable(table: { readonly json: string; readonly columns: readonly Column[] }, sizes: ChunkSizes = CHUNK_SIZES): ChunkedTable {
  const framed = frameOf(table.json, table.columns);
  const rowEnds = framed ? rowEndsOf(table.json, framed.start, framed.end) : undefined;
  if (!framed || !rowEnds) return { head: table.json, tail: '', chunks: [] };
  return { head: table.json.slice(0, framed.start), tail: table.json.slice(framed.end), chunks: cut(table.json, framed.start, rowEnds, sizes) };
}

/** The text of a chunked table again. */
export function joinChunks(head: string, chunkTexts: readonly string[], tail: string): string {
  return `${head}${chunkTexts.join(',')}${tail}`;
}

/**
 * Where the rows' texts begin and end: a table as `JSON.stringify` writes `{ columns, rows }` (every table
 * the service writes). Any other text (keys in another order, more keys) is kept whole in its head: still
 * stored and read back exactly, only not shared with other tables.
 */
function frameOf(json: string, columns: readonly Column[]): { start: number; end: number } | undefined {
  const head = `{"columns":${JSON.stringify(columns)},"rows":[`;
  if (!json.startsWith(head) || !json.endsWith(']}')) return undefined;
  return { start: head.length, end: json.length - 2 };
}

/**
 * The index just past each row's text in `json[start, end)`, the array's elements; undefined when the
 * text between is not a plain list of arrays (then the table is kept whole). Strings are skipped with
 * `indexOf`, so the scan costs little more than reading the text once.
 */
function rowEndsOf(json: string, start: number, end: number): number[] | undefined {
  const ends: number[] = [];
  if (start === end) return ends;
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(json, i);
      if (i < 0 || i >= end) return undefined;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
    else if (c === COMMA && depth === 0) ends.push(i);
    if (depth < 0) return undefined;
  }
  if (depth !== 0) return undefined;
  ends.push(end);
  return ends;
}

/** The index of the quote closing the string that opens at `open`; -1 when there is none. */
function closingQuote(json: string, open: number): number {
  let at = json.indexOf('"', open + 1);
  while (at > 0) {
    let backslashes = 0;
    while (json.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = json.indexOf('"', at + 1);
  }
  return -1;
}

function cut(json: string, start: number, rowEnds: readonly number[], sizes: ChunkSizes): Chunk[] {
  const chunks: Chunk[] = [];
  let chunkStart = start;
  let rows = 0;
  let rowStart = start;
  for (const rowEnd of rowEnds) {
    rows++;
    const boundary = endsChunk(json, rowStart, rowEnd, sizes) || rows >= sizes.maxRows || rowEnd === rowEnds[rowEnds.length - 1];
    if (boundary) {
      const text = json.slice(chunkStart, rowEnd);
      chunks.push({ text, rows, hash: chunkHash(text) });
      chunkStart = rowEnd + 1;
      rows = 0;
    }
    rowStart = rowEnd + 1;
  }
  return chunks;
}

/**
 * Whether the row ends its chunk: a 16-bit hash (FNV-1a) of its first characters below its share of the
 * target length. Hashing the beginning only keeps a boundary where it was when a later value changes.
 */
function endsChunk(json: string, start: number, end: number, sizes: ChunkSizes): boolean {
  const share = (end - start) / sizes.targetChars;
  if (share >= 1) return true;
  let h = 0x811c9dc5;
  const stop = Math.min(end, start + sizes.hashedChars);
  for (let i = start; i < stop; i++) h = Math.imul(h ^ json.charCodeAt(i), 0x01000193);
  return (((h >>> 16) ^ h) & 0xffff) < share * 0x10000;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
