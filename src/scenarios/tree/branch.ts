import type { DomainRegistry } from '../../domain/registry.js';
import { ScenaristError } from '../../errors.js';
import { errors } from '../../error-factories.js';
import type { ParamDecls } from '../../params/kinds.js';
import { validateScenarioParams } from '../../params/validate.js';
import type { ScenarioRef } from '../../store/scenarios-repository.js';
import type { Store } from '../../store/store.js';
import type { ScenarioService } from '../service.js';
import type { ScenarioView } from '../view.js';
import { branchDatasetKeys } from './branch-key.js';
import type { DerivedDataset, TreeDatasets } from './dataset-port.js';

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

/**
 * Branches a scenario, in any state: a new scenario whose parent is the base, with the base's
 * algorithm, its parameters with the given ones merged over them, and, with edits, a dataset derived
 * from the base's. Everything the request can get wrong is checked before a dataset is derived; a
 * derived dataset whose scenario could not be stored after all (its tag taken meanwhile) is removed.
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

    const derived = input.edits && input.edits.length > 0 ? await this.derive(base.sessionId, record.datasetKey, input.tag, input.edits) : null;
    let created: ScenarioView;
    try {
      created = await scenarios.create(base.sessionId, {
        tag: input.tag,
        datasetKey: derived?.key ?? record.datasetKey,
        algoName: record.algoName,
        algoParams,
        dataParams,
        parentId: record.id,
      });
    } catch (err) {
      if (derived) await this.deps.datasets.discard(base.sessionId, derived.key);
      throw err;
    }
    // With autorun the branch is queued already.
    if (input.run === true && created.status === 'CREATED') created = await scenarios.run({ sessionId: base.sessionId, id: created.id });
    return { ...created, derived_dataset: derived };
  }

  /** Derives the branch's dataset under the first free key its tag gives (another request may take one first). */
  private async derive(sessionId: string, baseKey: string, tag: string, edits: readonly unknown[]): Promise<DerivedDataset> {
    const { datasets } = this.deps;
    let tries = 0;
    for (const key of branchDatasetKeys(tag)) {
      if (++tries > MAX_KEY_TRIES) break;
      if (await datasets.exists(sessionId, key)) continue;
      try {
        return await datasets.derive(sessionId, baseKey, key, edits);
      } catch (err) {
        if (err instanceof ScenaristError && err.code === 'DATASET_KEY_TAKEN') continue;
        throw err;
      }
    }
    throw errors.datasetKeyTaken(tag);
  }
}
