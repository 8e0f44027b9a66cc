/** What the ETL pipeline tells the client about its files, besides the tables (docs/api/contract.md, "Datasets"). */
export type Severity = 'info' | 'warning' | 'error';

/**
 * One finding with its location. `row` is the 1-based data row; the header is not counted:
 * - CSV: row n is the n-th record after the header (blank lines count, so in a file without line breaks
 *   inside quoted fields, row n is on line n + 1);
 * - XLSX: row n is the n-th sheet row below the header row (blank rows count; sheet row n + 1 when the
 *   header is on row 1);
 * - JSON: the record's 1-based position in its array; a nested child row reports its parent record's
 *   position, and its message starts with the item (`item 2 of 'lines': ...`).
 */
export interface EtlMessage {
  severity: Severity;
  file?: string;
  table?: string;
  column?: string;
  row?: number;
  message: string;
}

/** How many messages of one kind (per file, table and column) are listed before they are summarised. */
export const MESSAGES_PER_KIND = 20;

interface Overflow {
  readonly summary: EtlMessage;
  readonly label: string;
  hidden: number;
}

/**
 * Collects messages in order. A repeated problem (a kind, in one column of one table) is listed
 * MESSAGES_PER_KIND times, then summarised by one "and N more" message placed where the first hidden one
 * would have been, so a 100k-row file of bad values still yields a short response.
 */
export class MessageLog {
  private readonly list: EtlMessage[] = [];
  private readonly shown = new Map<string, number>();
  private readonly overflows = new Map<string, Overflow>();
  private errorCount = 0;

  get hasErrors(): boolean {
    return this.errorCount > 0;
  }

  add(message: EtlMessage): void {
    if (message.severity === 'error') this.errorCount++;
    this.list.push(message);
  }

  /**
   * Adds a message of a repeatable kind; `label` names the kind in the summary ("values that are not
   * integers"). Messages are counted per kind, file, table and column unless `perColumn` is false.
   */
  addCapped(kind: string, label: string, message: EtlMessage, perColumn = true): void {
    const column = perColumn ? (message.column ?? '') : '';
    const key = `${kind}\u0000${message.file ?? ''}\u0000${message.table ?? ''}\u0000${column}`;
    const shown = this.shown.get(key) ?? 0;
    if (shown < MESSAGES_PER_KIND) {
      this.shown.set(key, shown + 1);
      this.add(message);
      return;
    }
    const overflow = this.overflows.get(key);
    if (overflow) {
      overflow.hidden++;
      return;
    }
    const { row: _row, ...where } = message;
    const summary: EtlMessage = { ...where, message: '' };
    if (!perColumn) delete summary.column;
    this.overflows.set(key, { summary, label, hidden: 1 });
    this.add(summary);
  }

  /** The messages, with each summary's final count filled in. */
  finish(): EtlMessage[] {
    for (const { summary, label, hidden } of this.overflows.values()) {
      summary.message = `and ${hidden} more ${label} (only the first ${MESSAGES_PER_KIND} are listed)`;
    }
    return this.list;
  }
}
