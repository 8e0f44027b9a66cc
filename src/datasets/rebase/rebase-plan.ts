import type { Table } from '../../domain/dataset-model.js';
import type { DomainRegistry } from '../../domain/registry.js';
import type { EditEffect } from '../../domain/edits/edit-model.js';
import { errors } from '../../error-factories.js';
import type { Store } from '../../store/store.js';
import type { ParsedTables } from '../edits/parsed-tables.js';
import { tableShapes, type TableShapes } from '../edits/table-shape.js';
import type { DatasetChains } from './dataset-chains.js';
import { editOf, replayEdits, type EditConflict } from './replay-edits.js';
import type { RootBase, RootSource } from './root-source.js';
import { firstFreeName } from './successor-names.js';

/** A scenario a rebase makes a successor of, as the plan needs it. */
export interface RebasedNode {
  readonly id: string;
  readonly tag: string;
  readonly datasetKey: string;
}

/** An edit a rebase set aside (`on_conflict: "skip"`), as its new dataset records it. */
export interface SkippedEdit {
  readonly path: string;
  readonly message: string;
  readonly edit: unknown;
}

/** A derived dataset remade on the new data: the old one's edits replayed on its (rebased) parent. */
export interface PlannedDataset {
  readonly oldKey: string;
  readonly key: string;
  /** The dataset it is derived from: the root itself, or its parent's successor. */
  readonly parent: string;
  /** Set when the parent is the root: the root's version the edits were replayed on. */
  readonly root: RootBase | undefined;
  readonly effects: EditEffect[];
  /** The new content of each table its edits changed (the others are its parent's). */
  readonly tables: ReadonlyMap<string, Table>;
  /** The tables its edits were applied to, by name (its parent's): what `tables` was made from. */
  readonly inputs: Readonly<Record<string, Table>>;
  readonly skipped: SkippedEdit[];
}

/** A conflict as the answer lists it: whose edit, which dataset's, where and why. */
export interface RebaseConflict {
  readonly scenario_id: string;
  readonly tag: string;
  readonly dataset: string;
  readonly path: string;
  readonly message: string;
}

export interface RebasePlan {
  /** Parents before children: the order they are stored in. */
  readonly datasets: PlannedDataset[];
  /** Each scenario's dataset key (old) to its successor's. */
  readonly datasetOf: ReadonlyMap<string, string>;
  /** The version of the root each old dataset key's successor is on (names say it). */
  readonly versionOf: ReadonlyMap<string, number>;
  readonly conflicts: RebaseConflict[];
}

export interface PlanDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly parsed: ParsedTables;
  readonly roots: RootSource;
  readonly chains: DatasetChains;
}

/**
 * Works out a rebase without storing anything: for every dataset the scenarios use, the chain of
 * derivations down from its root, each replayed on the new data (`replayEdits`) under a new key that
 * says the version. `onto` is the version of the first scenario's root (default: the newest); any
 * other root a tree reaches is taken at its newest. Every conflict of every dataset is collected,
 * each named by the scenario it concerns (the one using that dataset, else the first whose chain has it).
 */
export async function planRebase(deps: PlanDeps, sessionId: string, nodes: readonly RebasedNode[], onto: number | undefined, skip: boolean): Promise<RebasePlan> {
  const { store, domain, parsed, roots, chains } = deps;
  /** By old key, so a dataset shared by several scenarios is remade once; by new key, to read a parent's tables. */
  const planned = new Map<string, PlannedDataset>();
  const byNewKey = new Map<string, PlannedDataset>();
  const order: PlannedDataset[] = [];
  const bases = new Map<string, { base: RootBase; shapes: TableShapes }>();
  const datasetOf = new Map<string, string>();
  const versionOf = new Map<string, number>();
  const conflictsOf = new Map<string, EditConflict[]>();
  const chosenKeys = new Set<string>();
  const copies = new Map<string, PlannedDataset>();

  const baseOf = async (rootKey: string, first: boolean) => {
    let found = bases.get(rootKey);
    if (!found) {
      const base = first && onto !== undefined ? await roots.at(sessionId, rootKey, onto) : await roots.current(sessionId, rootKey);
      found = { base, shapes: tableShapes(base.tables, domain.domain.schemas) };
      bases.set(rootKey, found);
    }
    return found;
  };
  const tableOf = async (key: string, name: string, base: RootBase): Promise<Table> => {
    const step = byNewKey.get(key);
    if (step) return step.tables.get(name) ?? tableOf(step.parent, name, base);
    const ref = base.tables.find((t) => t.name === name)!;
    const table = await parsed.get(ref.hash, () => store.datasets.content(ref.hash));
    // The contents a root names stay while it does; gone means it was replaced since it was read.
    if (table === undefined) throw errors.datasetChangedWhileDerived(base.key);
    return table;
  };
  const keyTaken = async (candidate: string) => chosenKeys.has(candidate) || (await store.datasets.getMeta(sessionId, candidate)) !== undefined;

  for (const [i, node] of nodes.entries()) {
    if (datasetOf.has(node.datasetKey)) continue;
    const chain = await chains.chain(node.datasetKey);
    if (chain.length === 0) throw errors.datasetNotFound(node.datasetKey);
    const rootKey = chain[chain.length - 1]!.key;
    const { base, shapes } = await baseOf(rootKey, i === 0);
    // The root itself: a successor uses it as it is now, or the copy of its older version made below.
    let parent = rootKey;
    if (!base.current) parent = (await copyOfVersion(base)).key;
    for (const link of chain.slice(0, -1).reverse()) {
      const done = planned.get(link.key);
      if (done) {
        parent = done.key;
        continue;
      }
      const named = new Set(link.edits.map((e) => e.table).filter((t) => shapes.has(t)));
      const tables: Record<string, Table> = {};
      for (const name of named) tables[name] = await tableOf(parent, name, base);
      const replayed = replayEdits(tables, link.edits, shapes);
      if (replayed.conflicts.length > 0) conflictsOf.set(link.key, replayed.conflicts);
      const key = await firstFreeName(link.key, base.versionNo, keyTaken);
      if (key === undefined) throw errors.datasetKeyTaken(link.key);
      chosenKeys.add(key);
      const step: PlannedDataset = {
        oldKey: link.key,
        key,
        parent,
        root: parent === rootKey ? base : undefined,
        effects: replayed.effects,
        tables: replayed.tables,
        inputs: tables,
        skipped: skip ? replayed.conflicts.map((c) => ({ path: c.path, message: c.message, edit: editOf(link.edits[c.index]!) })) : [],
      };
      planned.set(link.key, step);
      byNewKey.set(key, step);
      order.push(step);
      parent = key;
    }
    datasetOf.set(node.datasetKey, parent);
    for (const link of chain) versionOf.set(link.key, base.versionNo);
  }

  /** An older version of a root, for scenarios that used the root itself: a copy under a key that says the version. */
  async function copyOfVersion(base: RootBase): Promise<PlannedDataset> {
    const done = copies.get(base.key);
    if (done) return done;
    const key = await firstFreeName(base.key, base.versionNo, keyTaken);
    if (key === undefined) throw errors.datasetKeyTaken(base.key);
    chosenKeys.add(key);
    const step: PlannedDataset = { oldKey: base.key, key, parent: base.key, root: base, effects: [], tables: new Map(), inputs: {}, skipped: [] };
    copies.set(base.key, step);
    byNewKey.set(key, step);
    order.push(step);
    return step;
  }

  return { datasets: order, datasetOf, versionOf, conflicts: await attributed(conflictsOf, nodes, chains) };
}

/** Each dataset's conflicts named by the scenario using it, else by the first scenario whose chain holds it. */
async function attributed(conflictsOf: ReadonlyMap<string, EditConflict[]>, nodes: readonly RebasedNode[], chains: DatasetChains): Promise<RebaseConflict[]> {
  if (conflictsOf.size === 0) return [];
  const owner = new Map<string, RebasedNode>();
  for (const node of nodes) if (!owner.has(node.datasetKey)) owner.set(node.datasetKey, node);
  for (const node of nodes) for (const link of await chains.chain(node.datasetKey)) if (!owner.has(link.key)) owner.set(link.key, node);
  const listed: RebaseConflict[] = [];
  for (const node of nodes) {
    for (const [dataset, conflicts] of conflictsOf) {
      if (owner.get(dataset) !== node) continue;
      for (const c of conflicts) listed.push({ scenario_id: node.id, tag: node.tag, dataset, path: c.path, message: c.message });
    }
  }
  return listed;
}
