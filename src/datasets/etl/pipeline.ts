import type { Table, Tables } from '../../domain/dataset-model.js';
import type { SchemaGroup, Schemas, TableSpec } from '../../domain/dataset-schema.js';
import { EtlInputError } from './errors.js';
import { groupUploads, type NamedUpload } from './group-files.js';
import { resolveLimits, type EtlLimits } from './limits.js';
import { MessageLog, type EtlMessage } from './messages.js';
import { CellBudget } from './readers/cell-budget.js';
import { InflateBudget } from './readers/inflate-budget.js';
import { READERS } from './readers/registry.js';
import type { UploadedFile } from './upload.js';
import { validateTable } from './validate-table.js';

export type EtlOutcome =
  | { success: true; tables: Tables; messages: EtlMessage[] }
  | { success: false; messages: EtlMessage[] };

/**
 * The ETL pipeline: uploaded files in, typed tables and messages out. Each file's stem picks its schema
 * group and its extension the reader; every table is coerced and validated against its spec. `success`
 * is false when any error-level message was logged, and then no tables are returned.
 * Throws `EtlInputError` (BAD_INPUT) when the request itself is unusable (see `groupUploads`), or when no
 * uploaded file can be read at all; a file that cannot be read among readable ones is an error message.
 */
export async function runEtl(schemas: Schemas, files: readonly UploadedFile[], limits?: Partial<EtlLimits>): Promise<EtlOutcome> {
  const resolved = resolveLimits(limits);
  checkTableNames(schemas);
  const uploads = groupUploads(schemas, files);
  const log = new MessageLog();
  const budgets = { cells: new CellBudget(resolved.maxCells), inflated: new InflateBudget(resolved.maxInflatedBytes) };
  const groupNames = Object.keys(schemas);
  for (const { file } of uploads.unmatched) {
    log.add({ severity: 'warning', file: file.filename, message: `the file name matches no schema group (${groupNames.join(', ')}); file ignored` });
  }
  const tables: Record<string, Table> = {};
  const unreadable: EtlInputError[] = [];
  for (const [groupName, group] of Object.entries(schemas)) {
    const upload = uploads.byGroup.get(groupName);
    if (!upload) {
      Object.assign(tables, absentGroup(groupName, group, log));
      continue;
    }
    try {
      Object.assign(tables, await readGroup(groupName, group, upload, resolved, log, budgets));
    } catch (err) {
      // One file that cannot be read must not hide what is wrong in the others: it becomes an error
      // message beside theirs. When no file could be read, the upload as a whole is over a limit, or a
      // file passes a structural limit (its cost is what is refused, not its content), the request
      // itself is unusable (400).
      const overALimit = budgets.cells.exhausted || budgets.inflated.exhausted || (err instanceof EtlInputError && err.code === 'UPLOAD_STRUCTURE_LIMIT');
      if (!(err instanceof EtlInputError) || err.file === undefined || overALimit) throw err;
      unreadable.push(err);
      log.add({ severity: 'error', file: err.file, message: err.message });
      Object.assign(tables, absentTables(group));
    }
  }
  if (unreadable.length > 0 && unreadable.length === uploads.byGroup.size) throw unreadable[0]!;
  const messages = log.finish();
  return log.hasErrors ? { success: false, messages } : { success: true, tables, messages };
}

interface Budgets {
  readonly cells: CellBudget;
  readonly inflated: InflateBudget;
}

async function readGroup(groupName: string, group: SchemaGroup, upload: NamedUpload, limits: EtlLimits, log: MessageLog, budgets: Budgets): Promise<Record<string, Table>> {
  const file = upload.file.filename;
  const raw = await READERS[upload.extension](upload.file.data, { file, groupName, group, limits, log, ...budgets });
  const tables: Record<string, Table> = {};
  for (const [table, spec] of Object.entries(group.tables)) {
    const rawTable = raw.get(table);
    // A table the reader could not find was reported by it; an empty table keeps the output's shape.
    tables[table] = rawTable ? await validateTable(spec, rawTable, { file, table }, log) : emptyTable(spec);
  }
  return tables;
}

/** A group without a file: an error when required; otherwise its tables are present and empty. */
function absentGroup(groupName: string, group: SchemaGroup, log: MessageLog): Record<string, Table> {
  const expected = `${groupName}.csv, ${groupName}.json or ${groupName}.xlsx`;
  if (group.required ?? true) {
    log.add({ severity: 'error', message: `no file for required schema group '${groupName}' (expected ${expected})` });
  } else {
    log.add({ severity: 'info', message: `no file for optional schema group '${groupName}'; its tables are empty` });
  }
  return absentTables(group);
}

const absentTables = (group: SchemaGroup): Record<string, Table> =>
  Object.fromEntries(Object.entries(group.tables).map(([table, spec]) => [table, emptyTable(spec)]));

function emptyTable(spec: TableSpec): Table {
  return { columns: Object.entries(spec.columns).map(([name, column]) => ({ name, type: column.type })), rows: [] };
}

/** Tables of all groups land in one `Tables` object, so a name used by two groups is a schema bug. */
function checkTableNames(schemas: Schemas): void {
  const owner = new Map<string, string>();
  for (const [groupName, group] of Object.entries(schemas)) {
    for (const table of Object.keys(group.tables)) {
      const other = owner.get(table);
      if (other !== undefined) throw new Error(`schema: table '${table}' is declared by groups '${other}' and '${groupName}'`);
      owner.set(table, groupName);
    }
  }
}
