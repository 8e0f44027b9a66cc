import type { Kysely } from 'kysely';
import type { DomainRegistry } from '../../domain/registry.js';
import { noteAuditTarget } from '../../model/audit/audit-scope.js';
import type { Database } from '../../store/database.js';
import { ScenaristError } from '../../errors.js';
import { errors } from '../../error-factories.js';
import type { ParamDecls } from '../../params/kinds.js';
import { validateScenarioParams } from '../../params/validate.js';
import type { ScenarioRef } from '../../store/scenarios-repository.js';
import type { Store } from '../../store/store.js';
import type { ScenarioService } from '../service.js';
import type { ScenarioView } from '../view.js';
import { branchDatasetKeys } from './branch-key.js';
import type { DerivedDataset, PreparedDataset, TreeDatasets } from './dataset-port.js';

/** `POST .../scenarios/{id}/branch`: what changes against the base; everything else is the base's. */
export interface BranchInput {
  readonly tag: string;
  /** Merged over the base's values; a null value asks for the parameter's default. */
  readonly algoParams?: Readonly<Record<string, unknown>> | null;
  readonly dataParams?: Readonly<Record<string, unknown>> | null;
  /** Edits of the base's dataset; given and non-empty, the branch runs on a dataset derived with them. */
  readonly edits?: readonly unknown[];
  /** Queue the branch at once. */
  readonly run?: boolean;
}

/** The branch as created: the scenario payload, and the dataset derived for it (null without edits). */
export type BranchView = ScenarioView & { readonly derived_dataset: DerivedDataset | null };

export interface BranchDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly scenarios: ScenarioService;
  readonly datasets: TreeDatasets;
}

/** How many taken keys a branch's dataset steps past before it gives up (each a lookup). */
const MAX_KEY_TRIES = 1_000;

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The base's stored values of the parameters still declared, with `given` over them. */
function merged(decls: ParamDecls, baseJson: string, given: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const base = parseObject(baseJson);
  const kept = Object.fromEntries(Object.keys(decls).filter((name) => Object.hasOwn(base, name)).map((name) => [name, base[name]]));
  return { ...kept, ...(given ?? {}) };
}

/** How often a branch is tried again when its base's dataset is replaced between reading and storing its derive. */
const DERIVE_ATTEMPTS = 3;

/** Thrown inside a branch's transaction to roll it back when its derive must be worked out again. */
class SourceChanged extends Error {}

/**
 * Branches a scenario, in any state: a new scenario whose parent is the base, with the base's
 * algorithm, its parameters with the given ones merged over them, and, with edits, a dataset derived
 * from the base's. Everything the request can get wrong is checked before anything is stored; the
 * derived dataset, the scenario and (with `run`) its queueing are then one transaction, so a crash
 * leaves all of them or none, and the request's audit entry commits with them, naming each.
 */
export class ScenarioBranches {
  constructor(private readonly deps: BranchDeps) {}

  async branch(base: ScenarioRef, input: BranchInput): Promise<BranchView> {
    const { domain, scenarios, store } = this.deps;
    const record = await scenarios.record(base);
    const algorithm = domain.algorithm(record.algoName);
    if (!algorithm) throw errors.algorithmNotFound(record.algoName);
    const algoParams = merged(domain.parametersOf(algorithm), record.algoParamsJson, input.algoParams);
    const dataParams = merged(domain.dataParameters, record.dataParamsJson, input.dataParams);
    validateScenarioParams(domain.parametersOf(algorithm), algoParams, domain.dataParameters, dataParams);
    if (await store.scenarios.tagExists(base.sessionId, input.tag)) throw errors.tagTaken(input.tag);

    const scenario = { tag: input.tag, algoName: record.algoName, algoParams, dataParams, parentId: record.id };
    const run = input.run === true;
    if (!input.edits || input.edits.length === 0) {
      return { ...(await scenarios.createWith(base.sessionId, { ...scenario, datasetKey: record.datasetKey }, { run })), derived_dataset: null };
    }
    // The entry names the base's dataset as `dataset` and the derived one as `new_dataset`, as a derive's does.
    noteAuditTarget('dataset', record.datasetKey);
    let [replaced, taken] = [0, 0];
    while (replaced < DERIVE_ATTEMPTS) {
      const prepared = await this.prepare(base.sessionId, record.datasetKey, input.tag, input.edits);
      if (prepared === undefined) {
        replaced++;
        continue;
      }
      const alongside = async (trx: Kysely<Database>) => {
        const outcome = await prepared.write(trx);
        if (outcome === 'missing') throw errors.datasetNotFound(record.datasetKey);
        if (outcome === 'changed') throw new SourceChanged();
      };
      try {
        const created = await scenarios.createWith(base.sessionId, { ...scenario, datasetKey: prepared.derived.key }, { run, alongside });
        return { ...created, derived_dataset: prepared.derived };
      } catch (err) {
        if (err instanceof SourceChanged) replaced++;
        // Another request took the key since it was found free: the next free one (`prepare` skips it now).
        else if (!(err instanceof ScenaristError && err.code === 'DATASET_KEY_TAKEN') || ++taken >= MAX_KEY_TRIES) throw err;
      }
    }
    throw errors.datasetChangedWhileDerived(record.datasetKey);
  }

  /**
   * The branch's derive under the first key its tag gives that no dataset has now (another request
   * may take it before the branch commits); undefined when the base's dataset was replaced while it
   * was read.
   */
  private async prepare(sessionId: string, baseKey: string, tag: string, edits: readonly unknown[]): Promise<PreparedDataset | undefined> {
    const { datasets } = this.deps;
    let tries = 0;
    for (const key of branchDatasetKeys(tag)) {
      if (++tries > MAX_KEY_TRIES) break;
      if (await datasets.exists(sessionId, key)) continue;
      noteAuditTarget('dataset', key);
      return datasets.prepareDerive(sessionId, baseKey, key, edits);
    }
    throw errors.datasetKeyTaken(tag);
  }
}
