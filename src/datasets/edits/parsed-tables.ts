import type { Table } from '../../domain/dataset-model.js';

/**
 * Parsed tables by content hash, for derives with edits: what-ifs branch again and again from the same
 * base, and parsing a 100k-row table costs more than editing it. A content never changes under its
 * hash, so an entry never goes stale; entries are dropped oldest first past `maxRows` rows in all.
 * The tables are shared: the edit applier never changes a table it is given (it copies what it edits).
 */
export class ParsedTables {
  private readonly entries = new Map<string, Table>();
  private rows = 0;

  constructor(private readonly maxRows: number) {}

  async get(hash: string, load: () => Promise<string | undefined>): Promise<Table | undefined> {
    const hit = this.entries.get(hash);
    if (hit) {
      // Most recently used last, so eviction drops the oldest use.
      this.entries.delete(hash);
      this.entries.set(hash, hit);
      return hit;
    }
    const text = await load();
    if (text === undefined) return undefined;
    const table = JSON.parse(text) as Table;
    this.remember(hash, table);
    return table;
  }

  private remember(hash: string, table: Table): void {
    if (table.rows.length > this.maxRows || this.entries.has(hash)) return;
    this.entries.set(hash, table);
    this.rows += table.rows.length;
    for (const [oldest, entry] of this.entries) {
      if (this.rows <= this.maxRows) break;
      this.entries.delete(oldest);
      this.rows -= entry.rows.length;
    }
  }
}
