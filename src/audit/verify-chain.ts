import { auditHash } from '../model/audit/audit-hash.js';
import type { AuditHeadRow, AuditRow } from '../store/audit/audit-repository.js';

/** How the chain broke where it did (worded by `describeFault`). */
export type FaultReason =
  /** The entry's hash no longer covers its content. */
  | 'content'
  /** The head records another hash for the last entry. */
  | 'head-hash'
  /** Entries lie beyond the head. */
  | 'beyond-head'
  /** The head is beyond the last entry. */
  | 'short-of-head'
  /** A number is skipped. */
  | 'gap'
  /** A number repeats. */
  | 'repeat'
  /** The next entry links to the one before this. */
  | 'skipped-over'
  /** The next entry no longer links to this one, which kept its place. */
  | 'relinked'
  /** The first entry does not follow the anchor. */
  | 'off-anchor';

/** Where the chain first stops being what was written: the entry named and how it differs. */
export interface ChainFault {
  readonly kind: 'changed' | 'inserted' | 'removed';
  /** The entry changed or inserted, or the first one missing. */
  readonly seq: number;
  /** The last missing entry (removed), or the entry whose link shows the fault. */
  readonly until: number;
  readonly reason: FaultReason;
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
        return report({ kind: 'changed', seq: row.seq, until: row.seq, reason: 'content' });
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
    return report({ kind: 'removed', seq: lastSeq + 1, until: head.seq, reason: 'short-of-head' });
  }
  if (lastSeq > head.seq) {
    return report({ kind: 'inserted', seq: head.seq + 1, until: head.seq, reason: 'beyond-head' });
  }
  if (prevHash !== head.hash) {
    return report({ kind: 'changed', seq: lastSeq, until: lastSeq, reason: 'head-hash' });
  }
  return { entries, anchorSeq: head.anchor_seq, headSeq: head.seq };
}

function linkFault(row: AuditRow, prevHash: string, prevPrevHash: string | undefined, expected: number, last: AuditRow | undefined): ChainFault | undefined {
  if (row.prev_hash === prevHash) {
    if (row.seq === expected) return undefined;
    // Linked, yet numbered out of place: renumbered around an entry that is gone or was added.
    return row.seq > expected
      ? { kind: 'removed', seq: expected, until: row.seq - 1, reason: 'gap' }
      : { kind: 'inserted', seq: row.seq, until: row.seq, reason: 'repeat' };
  }
  if (last !== undefined && row.prev_hash === prevPrevHash) {
    return { kind: 'inserted', seq: last.seq, until: row.seq, reason: 'skipped-over' };
  }
  if (row.seq > expected) {
    return { kind: 'removed', seq: expected, until: row.seq - 1, reason: 'gap' };
  }
  if (last !== undefined) {
    return { kind: 'changed', seq: last.seq, until: row.seq, reason: 'relinked' };
  }
  return { kind: 'removed', seq: expected, until: row.seq - 1, reason: 'off-anchor' };
}

function contentOf(row: AuditRow) {
  return { at: row.at, tokenId: row.token_id, who: row.who, address: row.address, action: row.action, sessionId: row.session_id, targets: row.targets, status: row.status };
}

/** The fault in a sentence, for `scenarist audit verify`. */
export function describeFault(fault: ChainFault): string {
  const { seq, until } = fault;
  const missing = seq === until ? `entry ${seq} was removed` : `entries ${seq} to ${until} were removed`;
  switch (fault.reason) {
    case 'content':
      return `entry ${seq} was changed: its content no longer matches its hash`;
    case 'head-hash':
      return `entry ${seq} was changed: the chain's head records another hash for it`;
    case 'relinked':
      return `entry ${seq} was changed and given a new hash: entry ${until} no longer follows it`;
    case 'beyond-head':
      return `entry ${seq} was inserted: the chain's head is entry ${until}`;
    case 'repeat':
      return `entry ${seq} was inserted: the sequence repeats there`;
    case 'skipped-over':
      return `entry ${seq} was inserted: entry ${until} follows the entry before it`;
    case 'short-of-head':
      return `${missing}: the chain's head is entry ${until}`;
    case 'gap':
      return `${missing}: entry ${until + 1} follows an entry that is not there`;
    case 'off-anchor':
      return `${missing}: entry ${until + 1} does not follow the chain's anchor (entry ${seq - 1})`;
  }
}
