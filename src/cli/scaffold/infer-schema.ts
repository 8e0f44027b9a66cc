import type { ColumnType } from '../../datasets/model.js';
import type { ColumnSpec, SchemaGroup, Schemas } from '../../datasets/schema.js';
import { nameUpload, type Extension } from '../../datasets/etl/group-files.js';
import { DEFAULT_ETL_LIMITS } from '../../datasets/etl/limits.js';
import { MessageLog } from '../../datasets/etl/messages.js';
import { CellBudget } from '../../datasets/etl/readers/cell-budget.js';
import { InflateBudget } from '../../datasets/etl/readers/inflate-budget.js';
import type { RawTable, ReadContext } from '../../datasets/etl/readers/reader.js';
import { READERS } from '../../datasets/etl/readers/registry.js';
import { ColumnProfile, pickPrimaryKey } from './column-profile.js';
import { discoverTables } from './discover-tables.js';

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
  return { groups, notes };
}

async function inferGroup(
  file: string, stem: string, extension: Extension, data: Buffer, tableNames: readonly string[],
  budgets: Pick<ReadContext, 'cells' | 'inflated'>, notes: string[],
): Promise<InferredTable[]> {
  const group: SchemaGroup = { tables: Object.fromEntries(tableNames.map((name) => [name, { columns: {} }])) };
  const log = new MessageLog();
  const raw = await READERS[extension](data, { file, groupName: stem, group, limits: DEFAULT_ETL_LIMITS, log, ...budgets });
  const tables: InferredTable[] = [];
  for (const name of tableNames) {
    const table = raw.get(name);
    if (table) tables.push(await inferTable(file, name, table, notes));
  }
  for (const message of log.finish()) {
    if (message.severity !== 'info') notes.push(`${file}${message.row ? ` row ${message.row}` : ''}: ${message.message}`);
  }
  if (tables.length === 0) throw new Error(`${file}: no table found`);
  return tables;
}

async function inferTable(file: string, name: string, table: RawTable, notes: string[]): Promise<InferredTable> {
  const { indexes, profiles } = usableColumns(file, name, table.header, notes);
  let rows = 0;
  await table.forEachRow((row) => {
    rows++;
    for (let k = 0; k < indexes.length; k++) profiles[k]!.add(row[indexes[k]!]);
  });
  const kept = profiles.filter((profile) => {
    if (profile.unusable === undefined) return true;
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
