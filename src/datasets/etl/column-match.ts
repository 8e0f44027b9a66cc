/**
 * Finds `wanted` among `names` (both trimmed): an exact match first, else the first case-insensitive one
 * not in `taken`. Returns the index in `names`, or -1. Used for columns, sheets, JSON keys and tables alike,
 * so a name matches the same way wherever it appears.
 */
export function matchName(wanted: string, names: readonly string[], taken: ReadonlySet<number> = new Set()): number {
  const target = wanted.trim();
  for (let i = 0; i < names.length; i++) if (!taken.has(i) && names[i]!.trim() === target) return i;
  const lower = target.toLowerCase();
  for (let i = 0; i < names.length; i++) if (!taken.has(i) && names[i]!.trim().toLowerCase() === lower) return i;
  return -1;
}

export interface ColumnMatch {
  /** For each wanted name, in order: its index in the header, or -1 when absent. */
  readonly indexes: number[];
  /** Header indexes that no wanted name matched. */
  readonly unmatched: number[];
}

/**
 * Matches wanted column names to header names. Exact matches are taken first for every column, so a
 * column `id` is never stolen by the case-insensitive match of another column `ID`.
 */
export function matchColumns(wanted: readonly string[], header: readonly string[]): ColumnMatch {
  const taken = new Set<number>();
  const indexes = wanted.map((name) => {
    const exact = header.findIndex((h, i) => !taken.has(i) && h.trim() === name.trim());
    if (exact >= 0) taken.add(exact);
    return exact;
  });
  wanted.forEach((name, w) => {
    if (indexes[w]! >= 0) return;
    const loose = matchName(name, header, taken);
    if (loose >= 0) taken.add(loose);
    indexes[w] = loose;
  });
  const unmatched = header.map((_, i) => i).filter((i) => !taken.has(i));
  return { indexes, unmatched };
}
