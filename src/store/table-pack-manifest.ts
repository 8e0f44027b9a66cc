import { decodeManifest } from './table-pack-manifest-text.js';

/**
 * A table's text as stored in packs (see `src/store/table-contents.ts`): its manifest names the packs it
 * reads (`table_packs`, each with its length) and the segments of them its text is made of, in order.
 * A read answers the manifest, a newline and the packs' texts one after the other, each after its id
 * and a space, in any order (`packedTable` in `src/store/table-pack-text.ts`); `unpackTable` cuts the
 * table's text out of that. Offsets and lengths are in UTF-16 code units, as JavaScript strings count: the database never
 * cuts a pack, it only concatenates them.
 */

/** `[pack id, length]`, ascending by id. */
export type PackRef = readonly [id: number, length: number];

/** `[index into packs, start, end)`: one stretch of a pack. */
export type Segment = readonly [pack: number, start: number, end: number];

export interface Manifest {
  readonly packs: readonly PackRef[];
  readonly segments: readonly Segment[];
}

/** A stretch of a pack named by its id (what a writer works with before the manifest is numbered). */
export interface PackSpan {
  readonly pack: number;
  readonly start: number;
  readonly end: number;
}

/** The manifest of a table made of `spans` in order, given each pack's length. */
export function manifestOf(spans: readonly PackSpan[], lengthOf: (pack: number) => number): Manifest {
  const ids = [...new Set(spans.map((s) => s.pack))].sort((a, b) => a - b);
  const index = new Map(ids.map((id, i) => [id, i]));
  return { packs: ids.map((id) => [id, lengthOf(id)] as const), segments: spans.map((s) => [index.get(s.pack)!, s.start, s.end] as const) };
}

/** Appends a span, merged into the last one when it goes on where that one ends in the same pack. */
export function appendSpan(spans: PackSpan[], span: PackSpan): void {
  if (span.end <= span.start) return;
  const last = spans[spans.length - 1];
  if (last && last.pack === span.pack && last.end === span.start) spans[spans.length - 1] = { pack: last.pack, start: last.start, end: span.end };
  else spans.push(span);
}

/** A stored table read back: its text, and where each part of it lies in which pack. */
export interface UnpackedTable {
  readonly text: string;
  /** The table's spans in order, by pack id; span `i` is the text from `offsets[i]` on. */
  readonly spans: readonly PackSpan[];
  readonly offsets: readonly number[];
  /** Each pack's length by id. */
  readonly lengths: ReadonlyMap<number, number>;
}

/** The table a read answered (`manifest`, newline, each pack's id, a space and its text). */
export function unpackTable(packed: string): string {
  const newline = packed.indexOf('\n');
  const manifest = decodeManifest(packed.slice(0, newline));
  const starts = packStarts(manifest, packed, newline + 1);
  if (manifest.segments.length === 1) {
    const [pack, start, end] = manifest.segments[0]!;
    return packed.slice(starts[pack]! + start, starts[pack]! + end);
  }
  return manifest.segments.map(([pack, start, end]) => packed.slice(starts[pack]! + start, starts[pack]! + end)).join('');
}

/** The table a read answered, with where its parts lie (a writer's base: `src/store/table-pack-base.ts`). */
export function unpackTableWithSpans(packed: string): UnpackedTable {
  const newline = packed.indexOf('\n');
  const manifest = decodeManifest(packed.slice(0, newline));
  const starts = packStarts(manifest, packed, newline + 1);
  const spans: PackSpan[] = [];
  const offsets: number[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const [pack, start, end] of manifest.segments) {
    spans.push({ pack: manifest.packs[pack]![0], start, end });
    offsets.push(offset);
    parts.push(packed.slice(starts[pack]! + start, starts[pack]! + end));
    offset += end - start;
  }
  return { text: parts.join(''), spans, offsets, lengths: new Map(manifest.packs.map(([id, length]) => [id, length])) };
}

/** Where each pack's text begins in a read's answer, by the pack's index in the manifest. */
function packStarts(manifest: Manifest, packed: string, first: number): number[] {
  const indexOf = new Map(manifest.packs.map(([id], i) => [id, i]));
  const starts: number[] = [];
  let at = first;
  while (at < packed.length) {
    const space = packed.indexOf(' ', at);
    const index = indexOf.get(Number(packed.slice(at, space)));
    if (index === undefined) throw new Error(`a stored table names pack ${packed.slice(at, space)} outside its manifest`);
    starts[index] = space + 1;
    at = space + 1 + manifest.packs[index]![1];
  }
  return starts;
}

/** The spans of `table` that hold its text `[from, to)`, cut to it. */
export function spansBetween(table: UnpackedTable, from: number, to: number): PackSpan[] {
  const { spans, offsets } = table;
  // The last span beginning at or before `from`.
  let low = 0;
  let high = spans.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= from) low = mid;
    else high = mid - 1;
  }
  const cut: PackSpan[] = [];
  for (let i = low; i < spans.length && offsets[i]! < to; i++) {
    const span = spans[i]!;
    const start = span.start + Math.max(0, from - offsets[i]!);
    const end = Math.min(span.end, span.start + (to - offsets[i]!));
    if (end > start) cut.push({ pack: span.pack, start, end });
  }
  return cut;
}
