import type { Schemas } from '../../domain/dataset-schema.js';
import type { DomainRegistry } from '../../domain/registry.js';
import type { ScenarioRecord } from '../../store/scenarios-repository.js';
import type { DataRelation, DatasetFamilies } from './dataset-families.js';
import type { TreeDatasets } from './dataset-port.js';
import { parameterChanges, type ParameterChange } from './parameter-changes.js';
import { diffTables, type TableDiff } from './table-diff.js';

/**
 * What differs in the data of a compared scenario from the baseline's: null when both use one dataset;
 * for one family, the derivations from their nearest shared dataset; for unrelated datasets, each
 * table compared row by row (`tables`).
 */
export type DataDifference =
  | Extract<DataRelation, { relation: 'family' }>
  | { readonly relation: 'unrelated'; readonly from: string; readonly to: string; readonly tables: TableDiff[] };

/** Compare's `inputs` entry of one scenario: what it runs with that the baseline does not. */
export interface InputDifference {
  readonly scenario_id: string;
  readonly parameters: ParameterChange[];
  readonly data: DataDifference | null;
}

/** The columns a table of the domain declares `primaryKey`, found by table name in any schema group. */
export function primaryKeyOf(schemas: Schemas, table: string): string[] {
  for (const group of Object.values(schemas)) {
    const spec = group.tables[table];
    if (spec) return Object.entries(spec.columns).filter(([, column]) => column.primaryKey === true).map(([name]) => name);
  }
  return [];
}

/**
 * For each compared scenario but the baseline, the parameters and the data that differ from the
 * baseline's. A pair of unrelated datasets is compared table by table once, however many scenarios
 * use it.
 */
export async function compareInputs(
  records: readonly ScenarioRecord[],
  baseline: ScenarioRecord,
  deps: { readonly domain: DomainRegistry; readonly datasets: TreeDatasets; readonly families: DatasetFamilies },
): Promise<InputDifference[]> {
  const tableDiffs = new Map<string, Promise<TableDiff[]>>();
  const diffOf = (from: string, to: string) => {
    const pair = JSON.stringify([from, to]);
    let found = tableDiffs.get(pair);
    if (!found) tableDiffs.set(pair, (found = diffDatasets(baseline.sessionId, from, to, deps)));
    return found;
  };
  const inputs: InputDifference[] = [];
  for (const record of records) {
    if (record.id === baseline.id) continue;
    const relation = await deps.families.relation(baseline.datasetKey, record.datasetKey);
    const data: DataDifference | null =
      relation?.relation === 'unrelated' ? { ...relation, tables: await diffOf(relation.from, relation.to) } : relation;
    inputs.push({ scenario_id: record.id, parameters: parameterChanges(baseline, record, deps.domain), data });
  }
  return inputs;
}

async function diffDatasets(sessionId: string, from: string, to: string, deps: { readonly domain: DomainRegistry; readonly datasets: TreeDatasets }): Promise<TableDiff[]> {
  const [before, after] = await Promise.all([deps.datasets.tables(sessionId, from), deps.datasets.tables(sessionId, to)]);
  // A dataset deleted since the scenario was made leaves nothing to compare (the scenario keeps its key).
  if (!before || !after) return [];
  return diffTables(before, after, (table) => primaryKeyOf(deps.domain.domain.schemas, table));
}
