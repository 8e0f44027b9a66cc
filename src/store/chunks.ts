/**
 * Values bound per statement when a write or read names many rows: well under either dialect's limit
 * on bound parameters (SQLite 32,766, PostgreSQL 65,535), with room for the statement's other values.
 */
export const IDS_PER_STATEMENT = 1_000;

/** `items` in pieces of at most `size`, for one statement each. */
export function* chunks<T>(items: readonly T[], size = IDS_PER_STATEMENT): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
