import type { RenderedView } from './rendered.js';

/** Bounds of the cache of rendered views: entries, and cells of table rows they hold all together. */
export interface ViewCacheLimits {
  readonly entries: number;
  readonly cells: number;
}

export const DEFAULT_VIEW_CACHE: ViewCacheLimits = { entries: 64, cells: 4_000_000 };

/** The cells a rendered view holds (a chart, metrics or text counts as one). */
function weightOf(view: RenderedView): number {
  const { rendered } = view;
  return rendered.kind === 'table' ? Math.max(1, rendered.table.rows.length * rendered.table.columns.length) : 1;
}

interface Entry {
  readonly view: Promise<RenderedView>;
  weight: number;
}

/**
 * Rendered views by key, least recently used first out. A key names what a view drew from (a run by its
 * finish time, a dataset by its version), so a rerun, reset or replaced dataset simply misses. Concurrent
 * requests for one key share one render; a failed render is not kept.
 */
export class ViewCache {
  private readonly entries = new Map<string, Entry>();
  private cells = 0;

  constructor(private readonly limits: ViewCacheLimits = DEFAULT_VIEW_CACHE) {}

  get(key: string, render: () => Promise<RenderedView>): Promise<RenderedView> {
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached); // most recently used last
      return cached.view;
    }
    const entry: Entry = { view: render(), weight: 0 };
    this.entries.set(key, entry);
    entry.view.then(
      (view) => {
        if (this.entries.get(key) !== entry) return;
        entry.weight = weightOf(view);
        this.cells += entry.weight;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.view;
  }

  /** Drops every view of keys starting with `prefix` (a deleted session or scenario). */
  dropPrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.remove(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.cells -= entry.weight;
  }

  /** Oldest first, until within bounds; the newest entry stays even when it alone is over the cell bound. */
  private evict(): void {
    while (this.entries.size > 1 && (this.entries.size > this.limits.entries || this.cells > this.limits.cells)) {
      this.remove(this.entries.keys().next().value!);
    }
  }
}
