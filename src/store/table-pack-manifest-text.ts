import type { Manifest, PackRef, Segment } from './table-pack-manifest.js';

/**
 * A manifest as `table_contents.manifest` stores it: integers as base64url varints, one after the other.
 * A version that changes rows here and there is some 2,000 segments; as JSON they cost some 17 bytes each
 * and compress less than table text, so on PostgreSQL the manifest alone took a third of the budget of
 * a new version (docs/benchmarks.md, "Dataset versions: storage"). Here a segment is some 4 bytes:
 *
 * - the number of packs, then per pack (ascending by id) its id as the gap from the previous id, and its length;
 * - then, to the end, per segment: the start's distance from where the previous segment of the same pack
 *   ended (zigzag, so a step back is small too) times the number of packs plus the pack's index, then
 *   the segment's length. Unchanged stretches of an old pack follow each other with a changed row's
 *   length between them, and a new pack's segments follow each other with none.
 *
 * A varint is 5 bits a character, least significant first, the character's 6th bit saying another
 * follows. Arithmetic, not bit operators: offsets may pass 2^31 (anything below 2^53 round-trips). The
 * text holds neither a newline nor a space, which a read's answer uses around it
 * (`src/store/table-pack-text.ts`).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

const zigzag = (n: number) => (n >= 0 ? 2 * n : -2 * n - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

export function encodeManifest(manifest: Manifest): string {
  const out: string[] = [];
  const put = (n: number) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`a manifest cannot hold ${n}`);
    while (n >= 32) {
      const low = n % 32;
      out.push(ALPHABET[32 + low]!);
      n = (n - low) / 32;
    }
    out.push(ALPHABET[n]!);
  };
  const { packs, segments } = manifest;
  put(packs.length);
  let previous = 0;
  for (const [id, length] of packs) {
    put(id - previous);
    put(length);
    previous = id;
  }
  const ends = new Array<number>(packs.length).fill(0);
  for (const [pack, start, end] of segments) {
    if (pack < 0 || pack >= packs.length) throw new Error(`a segment names pack index ${pack} of ${packs.length}`);
    put(zigzag(start - ends[pack]!) * packs.length + pack);
    put(end - start);
    ends[pack] = end;
  }
  return out.join('');
}

export function decodeManifest(text: string): Manifest {
  let at = 0;
  const next = () => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const code = text.charCodeAt(at++);
      const digit = code < 128 ? VALUE[code]! : -1;
      if (digit < 0) throw new Error(`a stored manifest is cut or holds ${JSON.stringify(text.charAt(at - 1))} at ${at - 1}`);
      if (digit < 32) return n + digit * scale;
      n += (digit - 32) * scale;
      scale *= 32;
    }
  };
  const count = next();
  const packs: PackRef[] = [];
  let id = 0;
  for (let i = 0; i < count; i++) {
    id += next();
    packs.push([id, next()]);
  }
  if (count === 0 && at < text.length) throw new Error('a stored manifest names segments but no pack');
  const segments: Segment[] = [];
  const ends = new Array<number>(count).fill(0);
  while (at < text.length) {
    const head = next();
    const pack = head % count;
    const start = ends[pack]! + unzigzag((head - pack) / count);
    const end = start + next();
    segments.push([pack, start, end]);
    ends[pack] = end;
  }
  return { packs, segments };
}
