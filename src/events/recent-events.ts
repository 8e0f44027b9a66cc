import type { LoggedEvent } from '../model/event-types.js';

/** An event as the feed hands it out: with its SSE frame, built once for every subscriber. */
export interface FeedEntry {
  readonly event: LoggedEvent;
  readonly frame: string;
}

/** Some of one session's events in id order, and the log position they bring a reader to. */
export interface SessionPage {
  readonly entries: readonly FeedEntry[];
  /** Every event of the session up to this id is in `entries` or was before them. */
  readonly reached: number;
}

/**
 * The latest events the feed read, in id order, kept to serve resumes without a query: `size` of
 * them at least, twice as many at most (trimmed in one slice, not on every event).
 */
export class RecentEvents {
  private entries: FeedEntry[] = [];

  constructor(private readonly size: number) {}

  add(entry: FeedEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.size * 2) this.entries = this.entries.slice(-this.size);
  }

  /**
   * Up to `limit` of a session's events after `position`; undefined when memory no longer holds
   * every event after `position` (the reader goes to the log).
   */
  sessionPage(sessionId: string, position: number, limit: number): SessionPage | undefined {
    const first = this.entries[0]?.event.id;
    if (first === undefined || first > position + 1) return undefined;
    const entries: FeedEntry[] = [];
    for (let i = this.indexAfter(position); i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.event.sessionId !== sessionId) continue;
      entries.push(entry);
      if (entries.length === limit) return { entries, reached: entry.event.id };
    }
    return { entries, reached: this.entries.at(-1)!.event.id };
  }

  /** Index of the first entry with an id above `id`. */
  private indexAfter(id: number): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[mid]!.event.id <= id) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
