import type { ColumnType } from '../../domain/dataset-model.js';
import type { ColumnSpec, SchemaGroup, Schemas } from '../../domain/dataset-schema.js';
import { nameUpload, type Extension } from '../../datasets/etl/group-files.js';
import { DEFAULT_ETL_LIMITS } from '../../datasets/etl/limits.js';
import { MessageLog } from '../../datasets/etl/messages.js';
import { CellBudget } from '../../datasets/etl/readers/cell-budget.js';
import { InflateBudget } from '../../datasets/etl/readers/inflate-budget.js';
import type { RawTable, ReadContext } from '../../datasets/etl/readers/reader.js';
import { NESTED_ARRAY } from '../../datasets/etl/readers/json-tables.js';
import { READERS } from '../../datasets/etl/readers/registry.js';
import { ColumnProfile, pickPrimaryKey } from './column-profile.js';
import { discoverTables, holdsNestedRecords } from './discover-tables.js';

export interface InferredColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
}

export interface InferredTable {
  readonly name: string;
  readonly rows: number;
  readonly columns: readonly InferredColumn[];
  /** A table read from arrays nested in a parent table's JSON records, as the upload reads it. */
  readonly parent?: { readonly table: string; readonly field: string; readonly foreignKey: string };
}

/** A data file by its base name (`<group>.csv|json|xlsx`) and content. */
export interface DataFile {
  readonly name: string;
  readonly data: Buffer;
}

/** One data file: the schema group its name stands for, and the tables found in it. */
export interface InferredGroup {
  readonly name: string;
  /** The file's base name. */
  readonly file: string;
  readonly tables: readonly InferredTable[];
}

export interface Inference {
  readonly groups: readonly InferredGroup[];
  /** What the user should know: columns left out, reader warnings. */
  readonly notes: readonly string[];
}

/**
 * Infers each file's tables and column types by reading it with the ETL readers and trying the ETL's
 * own coercions on every cell, so the schema written is one the same files pass on upload.
 */
export async function inferSchemas(files: readonly DataFile[]): Promise<Inference> {
  const groups: InferredGroup[] = [];
  const notes: string[] = [];
  const cells = new CellBudget(DEFAULT_ETL_LIMITS.maxCells);
  const inflated = new InflateBudget(DEFAULT_ETL_LIMITS.maxInflatedBytes);
  const tableOwner = new Map<string, string>();
  for (const { name: file, data } of files) {
    const { stem, extension } = nameUpload({ filename: file, data });
    if (groups.some((group) => group.name.toLowerCase() === stem.toLowerCase())) {
      throw new Error(`two data files are named '${stem}'; each file stands for one schema group, so give them different names`);
    }
    const tableNames = await discoverTables(file, stem, extension, data);
    for (const table of tableNames) {
      const other = tableOwner.get(table.toLowerCase());
      if (other !== undefined) throw new Error(`table '${table}' is found in both ${other} and ${file}; rename one`);
      tableOwner.set(table.toLowerCase(), file);
    }
    const tables = await inferGroup(file, stem, extension, data, tableNames, { cells, inflated }, notes);
    groups.push({ name: stem, file, tables });
  }
  // A file with nested records is read twice: its reader's warnings would be noted twice.
  return { groups, notes: [...new Set(notes)] };
}

async function inferGroup(
  file: string, stem: string, extension: Extension, data: Buffer, tableNames: readonly string[],
  budgets: Pick<ReadContext, 'cells' | 'inflated'>, notes: string[],
): Promise<InferredTable[]> {
  const group: SchemaGroup = { tables: Object.fromEntries(tableNames.map((name) => [name, { columns: {} }])) };
  const read = (schema: SchemaGroup) => readTables(file, stem, extension, data, schema, budgets, notes);
  const raw = await read(group);
  const tables: InferredTable[] = [];
  const nested: NestedArray[] = [];
  for (const name of tableNames) {
    const table = raw.get(name);
    if (table) tables.push(await inferTable(file, name, table, notes, nested));
  }
  if (tables.length === 0) throw new Error(`${file}: no table found`);
  const records = nested.filter(({ table, field }) => {
    if (extension === 'json' && holdsNestedRecords(file, stem, data, table, field)) return true;
    notes.push(`${file}: column '${field}' of table '${table}' left out: it holds a nested array`);
    return false;
  });
  if (records.length === 0) return tables;
  // Arrays of records nested in JSON records become child tables, linked by their parent's key, as
  // the upload reads them: read the file again with the children declared.
  const children = childTablesOf(file, tables, records, notes);
  if (children.length === 0) return tables;
  const withChildren: SchemaGroup = {
    tables: {
      ...Object.fromEntries(tables.map((t) => [t.name, { columns: Object.fromEntries(t.columns.filter((c) => c.primaryKey).map((c) => [c.name, columnSpec(c)])) }])),
      ...Object.fromEntries(children.map((child) => [child.name, { columns: {}, parent: child.parent }])),
    },
  };
  const again = await read(withChildren);
  for (const child of children) {
    const table = again.get(child.name);
    if (table) tables.push({ ...(await inferTable(file, child.name, table, notes, [])), parent: child.parent });
  }
  return tables;
}

/** A column of a JSON table left out because it holds arrays: a child table, when its items are records. */
interface NestedArray {
  readonly table: string;
  readonly field: string;
}

/**
 * The child tables of the nested arrays: named after the field (made unique), linked by the parent's
 * primary key into a `<parent>_<key>` column. A parent without a key candidate keeps its arrays out.
 */
function childTablesOf(file: string, tables: readonly InferredTable[], nested: readonly NestedArray[], notes: string[]) {
  const taken = new Set(tables.map((t) => t.name.toLowerCase()));
  const children: { name: string; parent: NonNullable<InferredTable['parent']> }[] = [];
  for (const { table, field } of nested) {
    const key = tables.find((t) => t.name === table)?.columns.find((c) => c.primaryKey);
    if (!key) {
      notes.push(`${file}: column '${field}' of table '${table}' left out: it holds nested records, and '${table}' has no column unique on every row to link them by`);
      continue;
    }
    let name = field;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${table}_${field}${n === 2 ? '' : n}`;
    taken.add(name.toLowerCase());
    children.push({ name, parent: { table, field, foreignKey: `${table}_${key.name}` } });
    notes.push(`${file}: the records nested under '${field}' of table '${table}' become table '${name}', linked by its column '${table}_${key.name}'`);
  }
  return children;
}

async function readTables(
  file: string, stem: string, extension: Extension, data: Buffer, group: SchemaGroup,
  budgets: Pick<ReadContext, 'cells' | 'inflated'>, notes: string[],
): Promise<Map<string, RawTable>> {
  const log = new MessageLog();
  const raw = await READERS[extension](data, { file, groupName: stem, group, limits: DEFAULT_ETL_LIMITS, log, ...budgets });
  for (const message of log.finish()) {
    if (message.severity !== 'info') notes.push(`${file}${message.row ? ` row ${message.row}` : ''}: ${message.message}`);
  }
  return raw;
}

async function inferTable(file: string, name: string, table: RawTable, notes: string[], nested: NestedArray[]): Promise<InferredTable> {
  const { indexes, profiles } = usableColumns(file, name, table.header, notes);
  let rows = 0;
  await table.forEachRow((row) => {
    rows++;
    for (let k = 0; k < indexes.length; k++) profiles[k]!.add(row[indexes[k]!]);
  });
  const kept = profiles.filter((profile) => {
    if (profile.unusable === undefined) return true;
    // Arrays of JSON records: a child table each (see `childTablesOf`), which says so in its own note.
    if (profile.unusable === NESTED_ARRAY.problem) {
      nested.push({ table: name, field: profile.name });
      return false;
    }
    notes.push(`${file}: column '${profile.name}' of table '${name}' left out: it holds ${profile.unusable}`);
    return false;
  });
  if (kept.length === 0) throw new Error(`${file}: table '${name}' has no usable column (is the first row a header?)`);
  const key = pickPrimaryKey(kept);
  const columns = kept.map((profile) => ({ name: profile.name, type: profile.type, nullable: profile.nullable, primaryKey: profile === key }));
  return { name, rows, columns };
}

/** Header columns with a name, each name once (compared case-insensitively, as the ETL matches them). */
function usableColumns(file: string, table: string, header: readonly string[], notes: string[]) {
  const indexes: number[] = [];
  const profiles: ColumnProfile[] = [];
  const taken = new Set<string>();
  header.forEach((written, index) => {
    const name = written.trim();
    if (name === '') {
      notes.push(`${file}: column ${index + 1} of table '${table}' has no name in the header; left out`);
    } else if (taken.has(name.toLowerCase())) {
      notes.push(`${file}: column '${name}' appears twice in table '${table}'; the second one is left out`);
    } else {
      taken.add(name.toLowerCase());
      indexes.push(index);
      profiles.push(new ColumnProfile(name));
    }
  });
  return { indexes, profiles };
}

/** The inferred groups as a domain's `schemas` declaration. */
export function toSchemas(groups: readonly InferredGroup[]): Schemas {
  return Object.fromEntries(groups.map((group) => [group.name, {
    tables: Object.fromEntries(group.tables.map((table) => [table.name, {
      columns: Object.fromEntries(table.columns.map((column) => [column.name, columnSpec(column)])),
      ...(table.parent ? { parent: table.parent } : {}),
    }])),
  }]));
}

export function columnSpec(column: InferredColumn): ColumnSpec {
  return {
    type: column.type,
    ...(column.primaryKey ? { primaryKey: true } : {}),
    ...(column.nullable ? { nullable: true } : {}),
  };
}
