import { errors } from '../error-factories.js';

/**
 * Where the previous page of a list ended, handed to clients as an opaque base64url token. It names
 * the sort it belongs to, so a cursor of one sort is refused by another instead of skipping rows.
 */
export interface ListCursor {
  /** The sort the cursor was made under (e.g. `-kpi:Travel Distance`). */
  readonly sort: string;
  /** The last row's sort value (tag or KPI value); null for a row without one. */
  readonly value: string | number | null;
  /** The last row's creation sequence: the tie-break, and the whole key for `created_at`. */
  readonly seq: number;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.value, cursor.seq]), 'utf8').toString('base64url');
}

export function decodeCursor(token: string, sort: string): ListCursor {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw errors.cursorInvalid();
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    typeof parsed[0] === 'string' &&
    (parsed[1] === null || typeof parsed[1] === 'string' || (typeof parsed[1] === 'number' && Number.isFinite(parsed[1]))) &&
    Number.isSafeInteger(parsed[2]);
  if (!ok) throw errors.cursorInvalid();
  const [cursorSort, value, seq] = parsed as [string, string | number | null, number];
  if (cursorSort !== sort) throw errors.cursorOfOtherSort(cursorSort, sort);

  return { sort, value, seq };
}

/**
 * One page of a list read with one row more than asked (`limit + 1`): the extra row only says that
 * another page follows, which then starts after the page's last `seq`.
 */
export function pageBySeq<R extends { readonly seq: number }, V>(rows: readonly R[], limit: number, view: (row: R) => V): { items: V[]; lastSeq: number | undefined } {
  const page = rows.slice(0, limit);
  return { items: page.map(view), lastSeq: rows.length > limit ? page.at(-1)?.seq : undefined };
}
