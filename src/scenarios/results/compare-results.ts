import type { DomainRegistry } from '../../domain/registry.js';
import type { ScenarioRecord } from '../../store/scenarios-repository.js';
import { diffResults, sharedResultKeys, type ResultTableDiff } from './result-diff.js';

/** Compare's `results` entry of one scenario: its keyed result tables against the baseline's. */
export interface ResultDifference {
  readonly scenario_id: string;
  /**
   * Every keyed result table both algorithms return (same name, same key), compared row by row; null
   * when it or the baseline has no result (not COMPLETE).
   */
  readonly tables: ResultTableDiff[] | null;
}

/** For each compared scenario but the baseline, in order: how its keyed results differ from the baseline's. */
export function compareResults(records: readonly ScenarioRecord[], baseline: ScenarioRecord, domain: DomainRegistry): ResultDifference[] {
  const base = resultOf(baseline);
  return records
    .filter((record) => record.id !== baseline.id)
    .map((record) => {
      const result = resultOf(record);
      if (base === undefined || result === undefined) return { scenario_id: record.id, tables: null };
      return { scenario_id: record.id, tables: diffResults(base, result, sharedResultKeys(domain, baseline.algoName, record.algoName)) };
    });
}

/** The result of a COMPLETE scenario; undefined for any other (a FAILED one may keep a result its KPIs failed on: not a plan). */
export function resultOf(record: Pick<ScenarioRecord, 'status' | 'resultJson'>): unknown {
  return record.status === 'COMPLETE' && record.resultJson !== null ? (JSON.parse(record.resultJson) as unknown) : undefined;
}
