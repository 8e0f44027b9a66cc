import { COLUMN_TYPES, type Cell } from '../dataset-model.js';
import type { ColumnSpec, SchemaGroup, Schemas, TableSpec } from '../dataset-schema.js';
import { described, readChoice, readFields, readObject, readOptionalBoolean, readOptionalString, readString } from './read.js';
import type { Where } from './where.js';

/**
 * The manifest's `schemas`: the same groups, tables and columns as `defineSchemas` takes, member for
 * member, so a domain can move between the two forms by copying.
 */
export function readSchemas(value: unknown, at: Where): Schemas {
  const groups: Record<string, SchemaGroup> = {};
  const tableNames = new Set<string>();
  for (const [name, group] of Object.entries(readObject(value, at))) {
    const groupAt: Where = at.key(name);
    const fields = readFields(group, groupAt, ['tables', 'required', 'description'], ['tables']);
    const tables: Record<string, TableSpec> = {};
    for (const [tableName, table] of Object.entries(readObject(fields.tables, groupAt.key('tables')))) {
      const tableAt: Where = groupAt.key('tables').key(tableName);
      // Algorithms read tables by name across groups (`dataset.tables.<table>`): one name, one table.
      if (tableNames.has(tableName)) tableAt.fail('a table of this name is declared in another group already');
      tableNames.add(tableName);
      tables[tableName] = readTable(table, tableAt);
    }
    if (Object.keys(tables).length === 0) groupAt.key('tables').fail('must declare at least one table');
    groups[name] = {
      tables,
      ...optional('required', readOptionalBoolean(fields.required, groupAt.key('required'))),
      ...optional('description', readOptionalString(fields.description, groupAt.key('description'))),
    };
  }
  return groups;
}

function readTable(value: unknown, at: Where): TableSpec {
  const fields = readFields(value, at, ['columns', 'parent', 'description'], ['columns']);
  const columns: Record<string, ColumnSpec> = {};
  for (const [name, column] of Object.entries(readObject(fields.columns, at.key('columns')))) columns[name] = readColumn(column, at.key('columns').key(name));
  if (Object.keys(columns).length === 0) at.key('columns').fail('must declare at least one column');
  let parent: TableSpec['parent'];
  if (fields.parent !== undefined) {
    const p = readFields(fields.parent, at.key('parent'), ['table', 'field', 'foreignKey'], ['table', 'field', 'foreignKey']);
    parent = { table: readString(p.table, at.key('parent').key('table')), field: readString(p.field, at.key('parent').key('field')), foreignKey: readString(p.foreignKey, at.key('parent').key('foreignKey')) };
    if (!Object.hasOwn(columns, parent.foreignKey)) at.key('parent').key('foreignKey').fail(`names "${parent.foreignKey}", which is not a column of this table`);
  }
  return { columns, ...optional('parent', parent), ...optional('description', readOptionalString(fields.description, at.key('description'))) };
}

const COLUMN_FIELDS = ['type', 'required', 'default', 'nullable', 'primaryKey', 'unique', 'unit', 'description'];

function readColumn(value: unknown, at: Where): ColumnSpec {
  const fields = readFields(value, at, COLUMN_FIELDS, ['type']);
  const type = readChoice(fields.type, at.key('type'), COLUMN_TYPES);
  const cell = fields.default;
  if (cell !== undefined && cell !== null && !['string', 'number', 'boolean'].includes(typeof cell)) at.key('default').fail(`must be a string, number, boolean or null, got ${described(cell)}`);
  return {
    type,
    ...optional('required', readOptionalBoolean(fields.required, at.key('required'))),
    ...optional('default', cell as Cell | undefined),
    ...optional('nullable', readOptionalBoolean(fields.nullable, at.key('nullable'))),
    ...optional('primaryKey', readOptionalBoolean(fields.primaryKey, at.key('primaryKey'))),
    ...optional('unique', readOptionalBoolean(fields.unique, at.key('unique'))),
    ...optional('unit', readOptionalString(fields.unit, at.key('unit'))),
    ...optional('description', readOptionalString(fields.description, at.key('description'))),
  };
}

/** `{ [key]: value }`, or nothing when the value is absent: the built declarations carry no `undefined` members. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
