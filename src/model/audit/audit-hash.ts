import { createHash } from 'node:crypto';

/** The predecessor of the first entry, and the anchor of a chain nothing was pruned from. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * What an entry's hash covers, besides its predecessor's hash: every column but the hashes and `seq`.
 * The order of entries is held by the links (each hash covers the one before), not by `seq`, so an
 * entry slipped in by renumbering the rest shows as the link it breaks, not as a changed neighbour.
 */
export interface AuditEntryContent {
  readonly at: string;
  readonly tokenId: string | null;
  readonly who: string;
  readonly address: string | null;
  readonly action: string;
  readonly sessionId: string | null;
  /** The stored JSON text, hashed as stored (so verification never re-serialises). */
  readonly targets: string;
  readonly status: number;
}

/**
 * SHA-256 (hex) of the predecessor's hash and the entry's canonical form: a JSON array of its columns
 * in a fixed order, so no two different entries share a form. Changing any column, or the order of
 * entries, changes every hash from there on.
 */
export function auditHash(prevHash: string, entry: AuditEntryContent): string {
  const canonical = JSON.stringify([entry.at, entry.tokenId, entry.who, entry.address, entry.action, entry.sessionId, entry.targets, entry.status]);
  return createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');
}
