import { describe, expect, it } from 'vitest';
import { ReadThroughCache } from '../../src/cache/read-through-cache.js';

describe('the read-through cache', () => {
  it('loads a missing entry once and answers later reads from memory', async () => {
    const cache = new ReadThroughCache<string, number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read('a', load)).toBe(1);
    expect(await cache.read('a', load)).toBe(1);
    expect(loads).toBe(1);
  });

  it('does not keep a miss: an unknown key is loaded again on the next read', async () => {
    const cache = new ReadThroughCache<string, number>(10);
    let loads = 0;
    const load = async () => {
      loads++;
      return undefined;
    };
    await cache.read('a', load);
    await cache.read('a', load);
    expect(loads).toBe(2);
  });

  it('does not store what a read loaded when a write happened while it was loading', async () => {
    const cache = new ReadThroughCache<string, string>(10);
    let release: (value: string) => void = () => {};
    const reading = cache.read('a', () => new Promise<string>((resolve) => (release = resolve)));
    cache.delete('a'); // a write while the read was in flight
    release('stale');
    expect(await reading).toBe('stale');
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps a value a write recorded, over a read that started before it', async () => {
    const cache = new ReadThroughCache<string, string>(10);
    let release: (value: string) => void = () => {};
    const reading = cache.read('a', () => new Promise<string>((resolve) => (release = resolve)));
    cache.set('a', 'written');
    release('read before the write');
    await reading;
    expect(cache.get('a')).toBe('written');
  });

  it('changes a held entry in place and leaves a missing one missing', () => {
    const cache = new ReadThroughCache<string, { n: number }>(10);
    cache.set('a', { n: 1 });
    cache.update('a', (v) => ({ n: v.n + 1 }));
    cache.update('b', (v) => ({ n: v.n + 1 }));
    expect(cache.get('a')).toEqual({ n: 2 });
    expect(cache.get('b')).toBeUndefined();
  });

  it('drops the entries a predicate selects, and everything on clear', () => {
    const cache = new ReadThroughCache<string, string>(10);
    cache.set('a', 'one');
    cache.set('b', 'two');
    cache.set('c', 'one');
    cache.deleteWhere((v) => v === 'one');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'two', undefined]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('drops the least recently stored entry past its capacity', () => {
    const cache = new ReadThroughCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new ReadThroughCache(0)).toThrow(/capacity/);
  });
});
