import { decodeCursor, encodeCursor } from '../model/list-cursor.js';
import { AuditScope, runAuditedWork, type AuditDraft } from '../model/audit/audit-scope.js';
import { csvLine, type CsvValue } from '../exports/csv.js';
import type { AuditQuery, AuditRepository, AuditRow } from '../store/audit/audit-repository.js';
import { verifyChain, type ChainReport } from './verify-chain.js';

/** One entry as the API shows it. */
export interface AuditEntryView {
  readonly seq: number;
  readonly at: string;
  readonly who: { readonly token_id: string | null; readonly name: string };
  readonly address: string | null;
  readonly action: string;
  readonly session_id: string | null;
  readonly targets: Record<string, string>;
  readonly status: number;
  readonly hash: string;
  readonly prev_hash: string;
}

export interface AuditPage {
  readonly entries: AuditEntryView[];
  readonly next_cursor: string | null;
}

/** What a reader may narrow the trail to (the session comes from the route). */
export interface AuditFilter {
  readonly action?: string;
  readonly who?: string;
}

/** The cursor names this list, so a cursor of another list is refused (`CURSOR_INVALID`). */
const CURSOR_SORT = 'audit';
/** Rows per query while exporting. */
const EXPORT_BATCH = 5_000;

export const AUDIT_CSV_COLUMNS = ['seq', 'at', 'token_id', 'who', 'address', 'action', 'session_id', 'targets', 'status', 'hash', 'prev_hash'];

/** Reading, exporting, pruning and verifying the audit trail (its entries are written by the store's hook). */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly retentionMs: number,
  ) {}

  /** A page of entries, newest first; `sessionId` undefined reads every session's (admin). */
  async page(sessionId: string | undefined, filter: AuditFilter, limit: number, cursor: string | undefined): Promise<AuditPage> {
    const beforeSeq = cursor === undefined ? undefined : Number(decodeCursor(cursor, CURSOR_SORT).seq);
    const rows = await this.repo.page({ ...queryOf(sessionId, filter), beforeSeq, limit: limit + 1 });
    const entries = rows.slice(0, limit).map(entryView);
    const next = rows.length > limit ? entries[entries.length - 1] : undefined;
    return { entries, next_cursor: next === undefined ? null : encodeCursor({ sort: CURSOR_SORT, value: null, seq: next.seq }) };
  }

  /** Every matching entry as CSV lines, newest first, read a batch at a time. */
  async *csv(sessionId: string | undefined, filter: AuditFilter): AsyncGenerator<string> {
    yield csvLine(AUDIT_CSV_COLUMNS);
    let beforeSeq: number | undefined;
    for (;;) {
      const rows = await this.repo.page({ ...queryOf(sessionId, filter), beforeSeq, limit: EXPORT_BATCH });
      for (const row of rows) yield csvLine(csvCells(row));
      if (rows.length < EXPORT_BATCH) return;
      beforeSeq = rows[rows.length - 1]!.seq;
    }
  }

  /** Drops entries past the retention; the prune is itself recorded, with the deletion. Answers how many went. */
  prune(): Promise<number> {
    return runAuditedWork(new AuditScope(serviceDraft('audit.prune')), () => this.repo.prune(this.retentionMs));
  }

  async verify(): Promise<ChainReport> {
    return verifyChain(await this.repo.head(), this.repo.walk());
  }
}

/** A draft for the service's own work (no token, no client address). */
export function serviceDraft(action: string, who = 'system'): AuditDraft {
  return { action, tokenId: null, who, address: null, sessionId: null, targets: {}, status: 200 };
}

function queryOf(sessionId: string | undefined, filter: AuditFilter): Omit<AuditQuery, 'limit'> {
  return {
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(filter.action === undefined ? {} : { action: filter.action }),
    ...(filter.who === undefined ? {} : { who: filter.who }),
  };
}

function entryView(row: AuditRow): AuditEntryView {
  return {
    seq: row.seq,
    at: row.at,
    who: { token_id: row.token_id, name: row.who },
    address: row.address,
    action: row.action,
    session_id: row.session_id,
    targets: JSON.parse(row.targets) as Record<string, string>,
    status: row.status,
    hash: row.hash,
    prev_hash: row.prev_hash,
  };
}

function csvCells(row: AuditRow): CsvValue[] {
  return [row.seq, row.at, row.token_id, row.who, row.address, row.action, row.session_id, row.targets, row.status, row.hash, row.prev_hash];
}
