import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DomainRegistry } from '../../domain/registry.js';
import { errors } from '../../error-factories.js';
import { noteAuditTarget } from '../../model/audit/audit-scope.js';
import type { CreateScenarioInput, ScenarioService } from '../../scenarios/service.js';
import type { ScenarioView } from '../../scenarios/view.js';
import type { Database } from '../../store/database.js';
import { isUniqueViolation } from '../../store/errors.js';
import { deriveFromVersion, linkSuccessors, recordSkippedEdits, type Succession } from '../../store/rebase-store.js';
import { ancestorsOf, descendantsOf } from '../../store/scenario-tree-query.js';
import type { ScenarioRef } from '../../store/scenarios-repository.js';
import type { Store } from '../../store/store.js';
import type { StoredTable } from '../../store/table-contents.js';
import { ParsedTables } from '../edits/parsed-tables.js';
import { DatasetChains } from './dataset-chains.js';
import { planRebase, type PlannedDataset, type RebasePlan } from './rebase-plan.js';
import { storedRoots } from './root-source.js';
import { firstFreeName } from './successor-names.js';
import { storedTableOf } from './table-text.js';
import { treeOrder } from './tree-order.js';

/** `POST .../scenarios/{id}/rebase` (docs/api/cycles.md, "Rebase and re-plan"). */
export interface RebaseInput {
  /** The version of the scenario's root dataset to rebase onto; the newest when absent. */
  readonly onto?: number;
  /** Rebase the scenario's descendants too, in the same transaction. */
  readonly tree?: boolean;
  /** Queue the successors at once. */
  readonly run?: boolean;
  /** `fail` (default): any conflict refuses the rebase; `skip`: conflicting edits are left out and recorded. */
  readonly onConflict?: 'fail' | 'skip';
}

export interface RebaseDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly scenarios: ScenarioService;
  /** Something was committed that logged events (the datasets and scenarios made): wake the feed and the webhooks. */
  readonly committed: () => void;
}

/** A successor as the answer shows it: the scenario payload with the links the rebase wrote. */
export type SuccessorView = ScenarioView & { readonly rebased_from: string; readonly replans: string | null };

/** Most scenarios one tree rebase remakes: far beyond a planner's tree, and a bound on one transaction. */
const MAX_TREE = 5_000;
/** Rows of parsed tables kept between rebases (a master's large tables, parsed once). */
const PARSED_TABLE_ROWS = 1_000_000;
/** How often a rebase is worked out again when a root is replaced between reading and storing. */
const ATTEMPTS = 3;

/** Thrown inside the transaction to roll it back when a root was replaced since it was read. */
class RootChanged extends Error {}

/**
 * Rebase: a scenario's data edits (its dataset's and its ancestors', in order) replayed on a version of
 * their root, as new derived datasets and successor scenarios with the same parameters; re-plan: the
 * published plan's successor on the newest data. Everything is worked out before anything is stored;
 * datasets, scenarios, their links and (with `run`) their queueing are then one transaction.
 */
export class ScenarioRebase {
  private readonly parsed = new ParsedTables(PARSED_TABLE_ROWS);

  constructor(private readonly deps: RebaseDeps) {}

  /** Successors of the scenario (and with `tree` of its descendants), in tree order. */
  rebase(ref: ScenarioRef, input: RebaseInput): Promise<SuccessorView[]> {
    return this.retried(ref, input, null);
  }

  /** The published plan's successor on the newest data, queued unless `run` is false; `replans` names the plan's scenario. */
  async replan(sessionId: string, input: { readonly run?: boolean; readonly onConflict?: 'fail' | 'skip' }): Promise<SuccessorView> {
    const plan = await this.deps.store.plans.current(sessionId);
    if (!plan) throw errors.planNotPublishedToReplan();
    noteAuditTarget('plan', plan.id);
    const [successor] = await this.retried({ sessionId, id: plan.scenario_id }, { run: input.run ?? true, onConflict: input.onConflict }, plan.scenario_id);
    return successor!;
  }

  private async retried(ref: ScenarioRef, input: RebaseInput, replans: string | null): Promise<SuccessorView[]> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        return await this.attempt(ref, input, replans);
      } catch (err) {
        if (!(err instanceof RootChanged)) throw err;
      }
    }
    throw errors.datasetChangedWhileDerived(ref.id);
  }

  private async attempt(ref: ScenarioRef, input: RebaseInput, replans: string | null): Promise<SuccessorView[]> {
    const { store, domain, scenarios } = this.deps;
    const { sessionId } = ref;
    const ancestors = await ancestorsOf(store.db, sessionId, ref.id);
    const top = ancestors[ancestors.length - 1];
    if (!top) throw errors.scenarioNotFound(ref.id);
    const nodes = input.tree === true ? treeOrder(top, await descendantsOf(store.db, sessionId, ref.id, MAX_TREE)) : [top];
    for (const node of nodes) if (!domain.algorithm(node.algoName)) throw errors.algorithmNotFound(node.algoName);

    const chains = new DatasetChains(store, sessionId);
    const deps = { store, domain, parsed: this.parsed, roots: storedRoots(store), chains };
    const plan = await planRebase(deps, sessionId, nodes, input.onto, input.onConflict === 'skip');
    if (plan.conflicts.length > 0 && input.onConflict !== 'skip') throw errors.rebaseConflict(plan.conflicts);

    const ids = new Map(nodes.map((n) => [n.id, randomUUID()]));
    const chosenTags = new Set<string>();
    const inputs: CreateScenarioInput[] = [];
    for (const node of nodes) {
      const tagTaken = async (tag: string) => chosenTags.has(tag) || (await store.scenarios.tagExists(sessionId, tag));
      const tag = await firstFreeName(node.tag, plan.versionOf.get(node.datasetKey)!, tagTaken);
      if (tag === undefined) throw errors.tagTaken(node.tag);
      chosenTags.add(tag);
      inputs.push({
        id: ids.get(node.id)!,
        tag,
        datasetKey: plan.datasetOf.get(node.datasetKey)!,
        algoName: node.algoName,
        algoParams: JSON.parse(node.algoParamsJson) as unknown,
        dataParams: JSON.parse(node.dataParamsJson) as unknown,
        // The top keeps its parent; each descendant hangs under its parent's successor.
        ...(node === top ? (node.parentId === null ? {} : { parentId: node.parentId }) : { parentId: ids.get(node.parentId!)! }),
      });
    }
    const successions: Succession[] = nodes.map((n) => ({ id: ids.get(n.id)!, rebasedFrom: n.id, replans: n === top ? replans : null }));
    // Parents first (the plan's order), so each table finds its parent's rows' texts made already.
    const tables = plan.datasets.map((step) => [...step.tables].map(([name, table]) => storedTableOf(name, table, step.inputs[name])));
    const views = await scenarios.createAll(sessionId, inputs, {
      run: input.run === true,
      alongside: (trx) => this.storeDatasets(trx, sessionId, plan, tables),
      afterwards: (trx) => linkSuccessors(trx, sessionId, successions),
    });
    this.deps.committed();
    return views.map((view, i) => ({ ...view, rebased_from: successions[i]!.rebasedFrom, replans: successions[i]!.replans }));
  }

  /** Stores the plan's datasets, parents first, in the rebase's transaction. */
  private async storeDatasets(trx: Kysely<Database>, sessionId: string, plan: RebasePlan, tables: readonly (readonly StoredTable[])[]): Promise<void> {
    for (const [i, step] of plan.datasets.entries()) {
      try {
        await this.storeDataset(trx, sessionId, step, tables[i]!);
      } catch (err) {
        if (isUniqueViolation(err)) throw errors.datasetKeyTaken(step.key);
        throw err;
      }
      if (step.skipped.length > 0) await recordSkippedEdits(trx, sessionId, step.key, JSON.stringify(step.skipped));
    }
  }

  private async storeDataset(trx: Kysely<Database>, sessionId: string, step: PlannedDataset, replaced: readonly StoredTable[]): Promise<void> {
    const meta = { key: step.key, kind: 'derived' as const, createdAt: new Date().toISOString(), version: randomUUID() };
    const lineage = { parentKey: step.parent, editsJson: JSON.stringify(step.effects) };
    if (step.root !== undefined && !step.root.current) {
      return deriveFromVersion(trx, sessionId, { key: step.root.key, versionNo: step.root.versionNo }, { ...meta, ...lineage }, replaced);
    }
    const outcome = await this.deps.store.datasets.derive(sessionId, step.parent, meta, lineage, replaced, step.root?.token, trx);
    if (outcome === 'missing') throw errors.datasetNotFound(step.parent);
    if (outcome === 'changed') throw new RootChanged();
  }
}
