import { staleOf, type StaleMark } from '../model/stale-mark.js';
import type { CurrentVersions } from '../store/dataset-versions-repository.js';
import type { ScenarioRecord } from '../store/scenarios-repository.js';

/**
 * Stale marks of scenarios (docs/api/cycles.md): the session's current versions are read once per
 * answer (`DatasetVersionsRepository.currentVersions`), however many scenarios it holds, and the rule
 * is applied to each as its payload is built (`scenarioView`), without copying the records.
 */

/**
 * The version the scenario was created (or reset) on. A row written without reading its versions
 * back (a create answered from its values) was created on the current one.
 */
export function createdOnVersion(record: ScenarioRecord, versions: CurrentVersions): number | null {
  return record.datasetVersion !== undefined ? record.datasetVersion : (versions.get(record.datasetKey)?.version_no ?? null);
}

/**
 * The scenario's mark: its result was computed on `result_dataset_version` once COMPLETE; before that
 * it is judged by the version it was created (or reset) on.
 */
export function scenarioStale(record: ScenarioRecord, createdOn: number | null, versions: CurrentVersions): StaleMark | null {
  const computedOn = record.status === 'COMPLETE' ? (record.resultDatasetVersion ?? createdOn) : createdOn;
  return staleOf(record.datasetKey, computedOn, versions);
}
