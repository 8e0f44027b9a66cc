import { auditHash } from '../model/audit/audit-hash.js';
import type { AuditHeadRow, AuditRow } from '../store/audit/audit-repository.js';

/** Where the chain first stops being what was written: the entry named and how it differs. */
export interface ChainFault {
  readonly kind: 'changed' | 'inserted' | 'removed';
  /** The entry changed or inserted, or the first one missing. */
  readonly seq: number;
  readonly detail: string;
}

export interface ChainReport {
  /** Entries read. */
  readonly entries: number;
  /** The last pruned entry (0 when nothing was pruned): the chain starts after it. */
  readonly anchorSeq: number;
  readonly headSeq: number;
  /** The first fault; absent when the chain is whole. */
  readonly fault?: ChainFault;
}

/**
 * Walks the chain from its anchor, checking for each entry that its hash covers its content and its
 * predecessor's hash, that its predecessor is the entry before it, and at the end that the last entry
 * is the head's. Stops at the first fault:
 * - an entry whose hash no longer matches its content was **changed**;
 * - an entry whose successor links to the entry before it was **inserted**;
 * - a gap in the sequence, or a link to an entry that is not there, means entries were **removed**
 *   (the first missing one is named), and a link broken with no gap means the entry before was
 *   changed and given a new hash.
 */
export async function verifyChain(head: AuditHeadRow, batches: AsyncIterable<readonly AuditRow[]>): Promise<ChainReport> {
  let entries = 0;
  let prevHash = head.anchor_hash;
  let prevPrevHash: string | undefined;
  let expected = head.anchor_seq + 1;
  let last: AuditRow | undefined;
  const report = (fault: ChainFault): ChainReport => ({ entries, anchorSeq: head.anchor_seq, headSeq: head.seq, fault });
  for await (const batch of batches) {
    for (const row of batch) {
      entries += 1;
      if (auditHash(row.prev_hash, contentOf(row)) !== row.hash) {
        return report({ kind: 'changed', seq: row.seq, detail: `entry ${row.seq} was changed: its content no longer matches its hash` });
      }
      const fault = linkFault(row, prevHash, prevPrevHash, expected, last);
      if (fault !== undefined) return report(fault);
      prevPrevHash = prevHash;
      prevHash = row.hash;
      expected = row.seq + 1;
      last = row;
    }
  }
  const lastSeq = last?.seq ?? head.anchor_seq;
  if (lastSeq < head.seq) {
    return report({ kind: 'removed', seq: lastSeq + 1, detail: `entries ${lastSeq + 1} to ${head.seq} were removed: the chain's head is entry ${head.seq}` });
  }
  if (lastSeq > head.seq) {
    return report({ kind: 'inserted', seq: head.seq + 1, detail: `entry ${head.seq + 1} was inserted: the chain's head is entry ${head.seq}` });
  }
  if (prevHash !== head.hash) {
    return report({ kind: 'changed', seq: lastSeq, detail: `entry ${lastSeq} was changed: the chain's head records another hash for it` });
  }
  return { entries, anchorSeq: head.anchor_seq, headSeq: head.seq };
}

function linkFault(row: AuditRow, prevHash: string, prevPrevHash: string | undefined, expected: number, last: AuditRow | undefined): ChainFault | undefined {
  if (row.prev_hash === prevHash) {
    if (row.seq === expected) return undefined;
    // Linked, yet numbered out of place: renumbered around an entry that is gone or was added.
    return row.seq > expected
      ? { kind: 'removed', seq: expected, detail: `entry ${expected} was removed: entry ${row.seq} follows entry ${expected - 1}` }
      : { kind: 'inserted', seq: row.seq, detail: `entry ${row.seq} was inserted: the sequence repeats there` };
  }
  if (last !== undefined && row.prev_hash === prevPrevHash) {
    return { kind: 'inserted', seq: last.seq, detail: `entry ${last.seq} was inserted: entry ${row.seq} follows the entry before it` };
  }
  if (row.seq > expected) {
    return { kind: 'removed', seq: expected, detail: `entries ${expected} to ${row.seq - 1} were removed: entry ${row.seq} follows an entry that is not there` };
  }
  if (last !== undefined) {
    return { kind: 'changed', seq: last.seq, detail: `entry ${last.seq} was changed and given a new hash: entry ${row.seq} no longer follows it` };
  }
  return { kind: 'removed', seq: row.seq, detail: `entries before ${row.seq} were removed: it does not follow the chain's anchor (entry ${expected - 1})` };
}

function contentOf(row: AuditRow) {
  return { at: row.at, tokenId: row.token_id, who: row.who, address: row.address, action: row.action, sessionId: row.session_id, targets: row.targets, status: row.status };
}
