import { matchName } from '../column-match.js';
import { decodeText } from '../decode-text.js';
import { etlErrors } from '../error-factories.js';
import { rootTables } from '../group-tables.js';
import { JsonShapeGuard, MAX_JSON_DEPTH } from './json-shape-guard.js';
import { buildJsonTables } from './json-tables.js';
import type { GroupReader, ReadContext } from './reader.js';

/**
 * A JSON file is an array of records for the group's root table (child tables nested in each record, per
 * `TableSpec.parent`), or an object of table name -> array of records (needed when a group has several
 * root tables; a child table given there is read flat, with its foreign-key column in each record).
 */
export const readJson: GroupReader = async (data, context) => {
  // Before decoding and parsing: a huge string or deep nesting fails in one pass that keeps nothing.
  jsonShapeGuard(context.file, context.limits.maxFieldBytes).feed(data);
  const text = decodeText(context.file, data);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw etlErrors.jsonInvalid(context.file, (err as Error).message);
  }
  return buildJsonTables(topLevelTables(root, context), context);
};

/** The string-length and depth check of a JSON upload, failing with a 400 that names the file and line. */
export function jsonShapeGuard(file: string, maxFieldBytes: number): JsonShapeGuard {
  return new JsonShapeGuard({ maxStringBytes: maxFieldBytes, maxDepth: MAX_JSON_DEPTH }, (where, problem) => etlErrors.structureLimit(file, where, problem));
}

/** The arrays of records the document gives per table. Throws `EtlInputError` for any other shape. */
function topLevelTables(root: unknown, { file, group, groupName, log }: ReadContext): Map<string, unknown[]> {
  const roots = rootTables(group);
  if (Array.isArray(root)) {
    if (roots.length !== 1) {
      throw etlErrors.jsonArrayForSeveralTables(file, groupName, roots);
    }
    return new Map([[roots[0]!, root]]);
  }
  if (root === null || typeof root !== 'object') {
    throw etlErrors.jsonRootNotRecords(file);
  }
  const tableNames = Object.keys(group.tables);
  const given = new Map<string, unknown[]>();
  for (const [key, value] of Object.entries(root)) {
    const index = matchName(key, tableNames);
    if (index < 0 || given.has(tableNames[index]!)) {
      log.add({ severity: 'warning', file, message: `key '${key}' names no table of group '${groupName}'; ignored` });
      continue;
    }
    if (!Array.isArray(value)) throw etlErrors.jsonTableNotArray(file, key);
    given.set(tableNames[index]!, value);
  }
  if (given.size === 0) {
    throw etlErrors.jsonNoTableOfGroup(file, groupName, tableNames);
  }
  for (const table of roots) {
    if (!given.has(table)) log.add({ severity: 'error', file, table, message: `the JSON object has no array of records for table '${table}'` });
  }
  return given;
}
