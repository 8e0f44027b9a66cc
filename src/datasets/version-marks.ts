import type { CurrentVersions } from '../store/dataset-versions-repository.js';
import { staleOf, type StaleMark } from '../model/stale-mark.js';

/** What a dataset's list item and lineage say of its versions (docs/api/cycles.md). */
export interface VersionMarks {
  /** Its current version number. */
  readonly version: number;
  /** The parent's version it was derived from; null when not derived. */
  readonly parent_version: number | null;
  /** Null while every ancestor is still at the version it was derived from. */
  readonly stale: StaleMark | null;
}

/** The marks of `key` from the session's current versions (read once for a whole list). */
export function versionMarks(key: string, versions: CurrentVersions): VersionMarks {
  const current = versions.get(key);
  return { version: current?.version_no ?? 1, parent_version: current?.parent_version ?? null, stale: staleOf(key, null, versions) };
}
