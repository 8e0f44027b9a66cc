import type { DomainRegistry } from '../../domain/registry.js';
import { errors } from '../../error-factories.js';
import { ancestorsOf, descendantsOf } from '../../store/scenario-tree-query.js';
import type { ScenarioRecord, ScenarioRef } from '../../store/scenarios-repository.js';
import type { Store } from '../../store/store.js';
import { compareInputs, type InputDifference } from './compare-inputs.js';
import { DatasetFamilies } from './dataset-families.js';
import type { TreeDatasets } from './dataset-port.js';
import { buildLineage, type LineageView } from './lineage.js';

/** Most descendants a lineage lists. */
export const MAX_LINEAGE_DESCENDANTS = 5_000;

export interface ScenarioTreeDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly datasets: TreeDatasets;
}

/** Read-side of scenario trees: a scenario's lineage, and what compared scenarios change against a baseline. */
export class ScenarioTree {
  constructor(private readonly deps: ScenarioTreeDeps) {}

  async lineage(ref: ScenarioRef, limit = MAX_LINEAGE_DESCENDANTS): Promise<LineageView> {
    const { store, domain, datasets } = this.deps;
    const chain = await ancestorsOf(store.db, ref.sessionId, ref.id);
    if (chain.length === 0) throw errors.scenarioNotFound(ref.id);
    const descendants = await descendantsOf(store.db, ref.sessionId, ref.id, limit + 1);
    const families = new DatasetFamilies(datasets, ref.sessionId);
    return buildLineage(chain, descendants.slice(0, limit), descendants.length > limit, { domain, families });
  }

  /** Compare's `inputs`: for each of `records` but the baseline, the parameters and data that differ from it. */
  inputs(records: readonly ScenarioRecord[], baseline: ScenarioRecord): Promise<InputDifference[]> {
    const { domain, datasets } = this.deps;
    return compareInputs(records, baseline, { domain, datasets, families: new DatasetFamilies(datasets, baseline.sessionId) });
  }
}
