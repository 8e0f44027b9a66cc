import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dataset, Table, Tables } from '../domain/dataset-model.js';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { FieldError } from '../errors.js';
import type { Database } from '../store/database.js';
import type { DatasetMeta } from '../store/datasets-repository.js';
import { isUniqueViolation } from '../store/errors.js';
import type { Store } from '../store/store.js';
import { storedTable, type StoredTable } from '../store/table-contents.js';
import { checkTables } from './codec.js';
import { applyEdits } from './edits/apply-edits.js';
import { isInsert, type DataEdit, type EditEffect } from '../domain/edits/edit-model.js';
import { editWarnings } from './edits/edit-problems.js';
import { tableShapes, type TableShapes } from './edits/table-shape.js';
import { validateEdits } from './edits/validate-edits.js';
import { ParsedTables } from './edits/parsed-tables.js';

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

/** What a derive stored, or why it did not: its source is gone, or was replaced since it was read. */
export type DeriveWrite = 'derived' | 'missing' | 'changed';

/** A derive worked out (edits checked and applied) and not stored yet. */
export interface PreparedDerive {
  readonly derived: Derived;
  /**
   * Stores it: in `db` when given, a transaction of the caller's that commits it with other writes
   * (a branch's scenario), else in a transaction of its own. `DATASET_KEY_TAKEN` when the key is taken.
   */
  write(db?: Kysely<Database>): Promise<DeriveWrite>;
}

/**
 * Derives `newKey` from `key` with edits. Tables no edit names are shared with the source inside the
 * database (the new dataset names their stored contents); each edited table is read, edited and
 * stored as new content. Every problem of every edit is refused at once, and nothing is stored then.
 * A domain with its own `derive()` gets the whole dataset and its result is stored whole.
 */
export async function deriveDataset(
  store: Store,
  domain: DomainRegistry,
  sessionId: string,
  key: string,
  options: DeriveOptions,
  parsed: ParsedTables = new ParsedTables(0),
): Promise<Derived> {
  for (let attempt = 0; attempt < DERIVE_ATTEMPTS; attempt++) {
    const prepared = await prepareDerive(store, domain, sessionId, key, options, parsed);
    const outcome = prepared === undefined ? 'changed' : await prepared.write();
    if (outcome === 'missing') throw errors.datasetNotFound(key);
    if (outcome === 'derived') return prepared!.derived;
  }
  throw errors.datasetChangedWhileDerived(key);
}

/**
 * Reads the source and works out the derive without storing anything: every bad edit is refused
 * here. Undefined when the source was replaced while its tables were read (ask again).
 */
export async function prepareDerive(
  store: Store,
  domain: DomainRegistry,
  sessionId: string,
  key: string,
  options: DeriveOptions,
  parsed: ParsedTables = new ParsedTables(0),
): Promise<PreparedDerive | undefined> {
  const meta = { key: options.newKey, kind: 'derived' as const, createdAt: new Date().toISOString(), version: randomUUID() };
  if (domain.dataSource?.derive) return prepareByDomain(store, domain, sessionId, key, meta, options.edits);
  return prepareSharing(store, domain, sessionId, key, meta, options.edits, parsed);
}

type NewMeta = Omit<DatasetMeta, 'sessionId'>;

/** A taken key is the derive's own refusal, whichever transaction met it. */
async function keyChecked(newKey: string, write: () => Promise<DeriveWrite>): Promise<DeriveWrite> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.datasetKeyTaken(newKey);
    throw err;
  }
}

async function prepareSharing(
  store: Store,
  domain: DomainRegistry,
  sessionId: string,
  key: string,
  meta: NewMeta,
  input: unknown,
  parsed: ParsedTables,
): Promise<PreparedDerive | undefined> {
  const source = await store.datasets.tableRefs(sessionId, key);
  if (!source) throw errors.datasetNotFound(key);
  const shapes = tableShapes(source.tables, domain.domain.schemas);
  const edits = checked(key, input ?? [], shapes);
  const touched = new Set(edits.map((e) => e.table));
  const tables: Record<string, Table> = {};
  for (const ref of source.tables) {
    if (!touched.has(ref.name)) continue;
    const table = await parsed.get(ref.hash, () => store.datasets.content(ref.hash));
    // The content is named by the dataset read above; gone now means the dataset was replaced.
    if (table === undefined) return undefined;
    tables[ref.name] = table;
  }
  const { effects, replaced } = edited(key, tables, edits, shapes);
  const lineage = { parentKey: key, editsJson: JSON.stringify(effects) };
  return {
    derived: { key: meta.key, parent: key, edits: effects, warnings: warningsOf(effects) },
    write: (db) => keyChecked(meta.key, () => store.datasets.derive(sessionId, key, meta, lineage, replaced, source.version, db)),
  };
}

async function prepareByDomain(store: Store, domain: DomainRegistry, sessionId: string, key: string, meta: NewMeta, input: unknown): Promise<PreparedDerive> {
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
  const write = { ...meta, sessionId, kind: derived.kind, tables, parentKey: key, editsJson: JSON.stringify(effects) };
  return {
    derived: { key: meta.key, parent: key, edits: effects, warnings: warningsOf(effects) },
    write: (db) =>
      keyChecked(meta.key, async () => {
        await store.datasets.insert(write, db);
        return 'derived';
      }),
  };
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
