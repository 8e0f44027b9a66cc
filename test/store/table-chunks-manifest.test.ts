import { describe, expect, it } from 'vitest';
import { decodeManifest, encodeManifest } from '../../src/store/table-pack-manifest-text.js';
import { manifestOf, unpackTable, unpackTableWithSpans, type Manifest, type PackSpan } from '../../src/store/table-pack-manifest.js';

/** A version's manifest as a writer makes it: unchanged stretches of `old` with a changed row of `fresh` between each. */
function scattered(segments: number, old: number, fresh: number): Manifest {
  const spans: PackSpan[] = [];
  let oldAt = 0;
  let freshAt = 0;
  for (let i = 0; i < segments / 2; i++) {
    const kept = 3_000 + ((i * 7_919) % 9_000);
    spans.push({ pack: old, start: oldAt, end: oldAt + kept });
    oldAt += kept + 63;
    spans.push({ pack: fresh, start: freshAt, end: freshAt + 64 });
    freshAt += 64;
  }
  return manifestOf(spans, (id) => (id === old ? oldAt : freshAt));
}

describe('the stored form of a table manifest', () => {
  it('round-trips empty, one-segment and scattered manifests, large ids and offsets, many packs and steps back', () => {
    const manyPacks = Array.from({ length: 300 }, (_, i) => [1 + i * 37 + (i > 150 ? 2 ** 31 : 0), 10 + i] as const);
    const cases: Manifest[] = [
      { packs: [], segments: [] },
      { packs: [[1, 0]], segments: [] },
      { packs: [[7, 25]], segments: [[0, 0, 25]] },
      { packs: [[2 ** 40, 2 ** 45]], segments: [[0, 2 ** 44, 2 ** 45], [0, 0, 1], [0, 2 ** 45 - 1, 2 ** 45]] },
      { packs: [[3, 100], [2 ** 31 - 1, 2 ** 32 + 5]], segments: [[1, 2 ** 32, 2 ** 32 + 5], [0, 99, 100], [1, 0, 2 ** 31], [0, 0, 0], [0, 31, 32], [0, 32, 33], [0, 0, 33]] },
      { packs: manyPacks, segments: manyPacks.flatMap(([, length], i) => [[i, 0, length] as const, [(i * 13) % 300, 5, 9] as const]).reverse() },
      scattered(2_000, 41, 2 ** 33),
    ];
    for (const manifest of cases) {
      const text = encodeManifest(manifest);
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeManifest(text)).toEqual(manifest);
    }
  });

  it('holds a 2,000-segment version in a few kB, under a quarter of its JSON', () => {
    const manifest = scattered(2_000, 1_234, 1_300);
    const text = encodeManifest(manifest);
    expect(text.length).toBeLessThan(10_000);
    expect(text.length).toBeLessThan(JSON.stringify(manifest).length / 4);
  });

  it('reads a table out of the packs of a read in any order', () => {
    const packs = new Map([[5, 'abcdefghij'], [9, '0123456789ü🚚']]);
    const spans: PackSpan[] = [{ pack: 9, start: 10, end: 13 }, { pack: 5, start: 2, end: 4 }, { pack: 9, start: 0, end: 2 }, { pack: 5, start: 8, end: 10 }];
    const manifest = manifestOf(spans, (id) => packs.get(id)!.length);
    const packed = `${encodeManifest(manifest)}\n9 ${packs.get(9)!}5 ${packs.get(5)!}`;
    expect(unpackTable(packed)).toBe('ü🚚cd01ij');
    const unpacked = unpackTableWithSpans(packed);
    expect(unpacked.spans).toEqual(spans);
    expect(unpacked.offsets).toEqual([0, 3, 5, 7]);
  });

  it('refuses to store what it cannot hold and to read a cut or foreign text', () => {
    expect(() => encodeManifest({ packs: [[1, 2 ** 53]], segments: [] })).toThrow(/cannot hold/);
    expect(() => encodeManifest({ packs: [[1, 5]], segments: [[1, 0, 5]] })).toThrow(/pack index 1 of 1/);
    expect(() => encodeManifest({ packs: [[1, 5]], segments: [[0, 4, 2]] })).toThrow(/cannot hold -2/);
    const text = encodeManifest(scattered(10, 3, 4));
    expect(() => decodeManifest(text.slice(0, text.search(/[g-z0-9_-]/) + 1))).toThrow(/cut/);
    expect(() => decodeManifest('')).toThrow(/cut/);
    expect(() => decodeManifest('{"packs":[]}')).toThrow(/holds "\{"/);
    expect(() => decodeManifest('AB')).toThrow(/no pack/);
  });
});
