/**
 * A map in front of the database for a process that is the store's only writer: reads fill it,
 * and the writer records every change it makes (or drops the entry). A miss always goes to the
 * database, so dropping or evicting an entry is always safe; only a missed write would be wrong.
 *
 * A read and a write may interleave: a read can answer a row that a write changes before the
 * read's continuation runs. Every change therefore advances a generation, and a read stores its
 * answer only when no change happened since it started; otherwise the next read asks again.
 */
export class ReadThroughCache<K, V> {
  private readonly entries = new Map<K, V>();
  private generation = 0;

  /** `capacity` bounds memory: past it the oldest entries are dropped (they are read again on use). */
  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** The entry, or what `load` answers, stored unless a change happened meanwhile. */
  async read(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const started = this.generation;
    const loaded = await load();
    if (loaded !== undefined && started === this.generation) this.store(key, loaded);
    return loaded;
  }

  /** Records a value this process just wrote. */
  set(key: K, value: V): void {
    this.generation++;
    this.store(key, value);
  }

  /** Changes an entry in place when it is held; a missing entry stays missing (the next read loads it). */
  update(key: K, change: (value: V) => V): void {
    this.generation++;
    const value = this.entries.get(key);
    if (value !== undefined) this.entries.set(key, change(value));
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drops every entry `matches` selects (an O(size) scan: for rare writes such as a session delete). */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    this.generation++;
    for (const [key, value] of this.entries) if (matches(value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: K, value: V): void {
    this.entries.delete(key); // re-inserted last: eviction drops the least recently stored
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }
}
