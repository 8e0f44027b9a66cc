import { randomUUID } from 'node:crypto';
import type { Dataset, Table, Tables } from '../domain/dataset-model.js';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { FieldError } from '../errors.js';
import type { DatasetMeta } from '../store/datasets-repository.js';
import { isUniqueViolation } from '../store/errors.js';
import type { Store } from '../store/store.js';
import { storedTable, type StoredTable } from '../store/table-contents.js';
import { checkTables } from './codec.js';
import { applyEdits } from './edits/apply-edits.js';
import { isInsert, type DataEdit, type EditEffect } from './edits/edit-model.js';
import { editWarnings } from './edits/edit-problems.js';
import { tableShapes, type TableShapes } from './edits/table-shape.js';
import { validateEdits } from './edits/validate-edits.js';

export interface DeriveOptions {
  readonly newKey: string;
  /** The edits as they came (checked here); none: the new dataset is a copy. */
  readonly edits?: unknown;
}

/** What a derive made: the new key, its parent, each edit with its effect, and warnings about edits that changed nothing. */
export interface Derived {
  readonly key: string;
  readonly parent: string;
  readonly edits: EditEffect[];
  /** An entry per edit whose `where` matched no row (`path` `edits[i]`); such an edit is stored with `rows: 0`. */
  readonly warnings: FieldError[];
}

/** Attempts of a derive whose source is replaced between reading its tables and storing the result. */
const DERIVE_ATTEMPTS = 3;

/**
 * Derives `newKey` from `key` with edits. Tables no edit names are shared with the source inside the
 * database (the new dataset names their stored contents); each edited table is read, edited and
 * stored as new content. Every problem of every edit is refused at once, and nothing is stored then.
 * A domain with its own `derive()` gets the whole dataset and its result is stored whole.
 */
export async function deriveDataset(store: Store, domain: DomainRegistry, sessionId: string, key: string, options: DeriveOptions): Promise<Derived> {
  const meta = { key: options.newKey, kind: 'derived' as const, createdAt: new Date().toISOString(), version: randomUUID() };
  try {
    if (domain.dataSource?.derive) return await deriveByDomain(store, domain, sessionId, key, meta, options.edits);
    for (let attempt = 0; attempt < DERIVE_ATTEMPTS; attempt++) {
      const derived = await deriveSharing(store, domain, sessionId, key, meta, options.edits);
      if (derived) return derived;
    }
    throw errors.datasetChangedWhileDerived(key);
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.datasetKeyTaken(options.newKey);
    throw err;
  }
}

type NewMeta = Omit<DatasetMeta, 'sessionId'>;

/** One attempt; undefined when the source was replaced meanwhile (then nothing was stored). */
async function deriveSharing(store: Store, domain: DomainRegistry, sessionId: string, key: string, meta: NewMeta, input: unknown): Promise<Derived | undefined> {
  const source = await store.datasets.tableRefs(sessionId, key);
  if (!source) throw errors.datasetNotFound(key);
  const shapes = tableShapes(source.tables, domain.domain.schemas);
  const edits = checked(key, input ?? [], shapes);
  const touched = new Set(edits.map((e) => e.table));
  const tables: Record<string, Table> = {};
  for (const ref of source.tables) {
    if (!touched.has(ref.name)) continue;
    const content = await store.datasets.content(ref.hash);
    // The content is named by the dataset read above; gone now means the dataset was replaced.
    if (content === undefined) return undefined;
    tables[ref.name] = JSON.parse(content) as Table;
  }
  const { effects, replaced } = edited(key, tables, edits, shapes);
  const outcome = await store.datasets.derive(sessionId, key, meta, { parentKey: key, editsJson: JSON.stringify(effects) }, replaced, source.version);
  if (outcome === 'missing') throw errors.datasetNotFound(key);
  return outcome === 'changed' ? undefined : { key: meta.key, parent: key, edits: effects, warnings: warningsOf(effects) };
}

async function deriveByDomain(store: Store, domain: DomainRegistry, sessionId: string, key: string, meta: NewMeta, input: unknown): Promise<Derived> {
  const record = await store.datasets.get(sessionId, key);
  if (!record) throw errors.datasetNotFound(key);
  const dataset: Dataset = { key: record.key, kind: record.kind, createdAt: record.createdAt, tables: JSON.parse(record.tablesJson) as Tables };
  const derived = domain.dataSource!.derive!(dataset, meta.key);
  const base = checkTables(derived.tables);
  const shapes = tableShapes(Object.entries(base).map(([name, table]) => ({ name, columns: table.columns })), domain.domain.schemas);
  const edits = checked(key, input ?? [], shapes);
  const { effects, replaced } = edited(key, base, edits, shapes);
  const byName = new Map(replaced.map((t) => [t.name, t]));
  const tables = Object.entries(base).map(([name, table]) => byName.get(name) ?? storedTable(name, table));
  await store.datasets.insert({ ...meta, sessionId, kind: derived.kind, tables, parentKey: key, editsJson: JSON.stringify(effects) });
  return { key: meta.key, parent: key, edits: effects, warnings: warningsOf(effects) };
}

function checked(key: string, input: unknown, shapes: TableShapes): readonly DataEdit[] {
  const check = validateEdits(input, shapes);
  if (!check.ok) throw errors.datasetEditsInvalid(key, check.errors);
  return check.edits;
}

/** The edits applied: each with its effect, and the new content of each edited table. */
function edited(key: string, tables: Readonly<Record<string, Table>>, edits: readonly DataEdit[], shapes: TableShapes) {
  const outcome = applyEdits(tables, edits, shapes);
  if (!outcome.ok) throw errors.datasetEditsInvalid(key, outcome.errors);
  const effects: EditEffect[] = edits.map((edit, i) => ({ ...edit, rows: outcome.rows[i]! }));
  const replaced: StoredTable[] = [...outcome.tables].map(([name, table]) => storedTable(name, table));
  return { effects, replaced };
}

function warningsOf(effects: readonly EditEffect[]): FieldError[] {
  return effects.flatMap((edit, i) => (edit.rows === 0 && !isInsert(edit) ? [{ path: `edits[${i}]`, message: editWarnings.matchesNoRow(edit.table) }] : []));
}
