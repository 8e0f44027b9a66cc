/** A key's current version and the version of its parent it was derived from. */
export interface CurrentVersion {
  readonly version_no: number;
  readonly parent_key: string | null;
  readonly parent_version: number | null;
}

/** Key → its current version, for every dataset of a session (read once per answer: `DatasetVersionsRepository.currentVersions`). */
export type CurrentVersions = ReadonlyMap<string, CurrentVersion>;

/**
 * The stale mark (docs/api/cycles.md, "Stale marks"): which dataset moved since something was
 * computed or derived on it, from which version to which. Null when nothing moved.
 */
export interface StaleMark {
  readonly dataset: string;
  readonly from_version: number;
  readonly to_version: number;
}

/**
 * The mark of something computed on version `computedOn` of dataset `key` (null: not known, so only
 * the ancestors are asked): the dataset itself when it moved, else the nearest ancestor (by the
 * `parent_key` chain) whose current version is not the one its child was derived from. Asks only the
 * session's map of current versions, read once for a whole list.
 */
export function staleOf(key: string, computedOn: number | null, versions: CurrentVersions): StaleMark | null {
  const current = versions.get(key);
  if (!current) return null;
  if (computedOn !== null && computedOn !== current.version_no) return { dataset: key, from_version: computedOn, to_version: current.version_no };
  return ancestorsMark(key, versions);
}

/** Ancestor marks by key, worked out once per map of versions (a list asks the same few keys a thousand times). */
const ancestorMarks = new WeakMap<CurrentVersions, Map<string, StaleMark | null>>();

/** The nearest ancestor of `key` that moved since its child was derived from it; null when none did. */
function ancestorsMark(key: string, versions: CurrentVersions): StaleMark | null {
  let known = ancestorMarks.get(versions);
  if (!known) ancestorMarks.set(versions, (known = new Map<string, StaleMark | null>()));
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  let mark: StaleMark | null = null;
  let child = versions.get(key)!;
  // A key deleted and derived again could make the chain loop: it is walked at most once around.
  for (let steps = 0; child.parent_key !== null && steps < versions.size; steps++) {
    const parent = versions.get(child.parent_key);
    if (!parent) break;
    if (child.parent_version !== null && child.parent_version !== parent.version_no) {
      mark = { dataset: child.parent_key, from_version: child.parent_version, to_version: parent.version_no };
      break;
    }
    child = parent;
  }
  known.set(key, mark);
  return mark;
}
