import { randomUUID } from 'node:crypto';
import { badInput, ScenaristError } from '../../errors.js';
import type { DomainRegistry } from '../../domain/registry.js';
import { checkRows, checkTables, decodeDataset, encodeDataset } from '../codec.js';
import type { Dataset, DatasetKind } from '../model.js';
import { checkJsonDepth, splitJsonForm, type SplitForm } from './json-form-split.js';

/** A dataset as it is stored: its tables as their JSON text (`JSON.stringify` of the checked tables). */
export interface StoredForm {
  readonly key: string;
  readonly kind: DatasetKind;
  readonly createdAt: string;
  readonly tablesJson: string;
}

/**
 * A dataset to store from the text of its JSON form, checked like any other input; every problem is a
 * 400 (`ScenaristError` BAD_INPUT). The default form is parsed a piece of rows at a time (see
 * `splitJsonForm`), so its time grows in step with its rows; a domain's own form is decoded whole.
 */
export function readJsonForm(domain: DomainRegistry, text: string): StoredForm {
  if (isBlank(text)) throw emptyBody();
  const split = domain.dataSource?.decode ? undefined : splitJsonForm(text);
  if (split) {
    try {
      const stored = storedFromSplit(split);
      if (stored) return stored;
    } catch (err) {
      // Parsed whole, a text that is not JSON fails before anything is checked: that error comes first.
      if (err instanceof ScenaristError) parseWhole(text);
      throw err;
    }
  }
  const dataset = decodeJsonForm(domain, text);
  return { key: dataset.key, kind: dataset.kind, createdAt: dataset.createdAt, tablesJson: JSON.stringify(dataset.tables) };
}

/**
 * A dataset from the text of its JSON form: parsed, decoded by the domain's data source when it has
 * its own form, and checked like any other input. Every problem is a 400 (`ScenaristError` BAD_INPUT).
 */
function decodeJsonForm(domain: DomainRegistry, text: string): Dataset {
  if (isBlank(text)) throw emptyBody();
  checkJsonDepth(text);
  const json = parseWhole(text);
  const source = domain.dataSource;
  if (!source?.decode) return decodeDataset(json);
  let decoded: Dataset;
  try {
    decoded = source.decode(json);
  } catch (err) {
    throw decodeError(err, json);
  }
  // A domain decoder's output is checked like any other input before it is stored; a decoder that
  // returns no dataset at all is still the input's 400, never a 500.
  if (typeof decoded !== 'object' || decoded === null) {
    throw badInput(`the data source could not decode the dataset: its decode() returned ${decoded === null ? 'null' : typeof decoded}, not a dataset`);
  }
  return decodeDataset(encodeDataset(decoded));
}

/** Stops at the first character that is not white space (trimming would copy a large text). */
const isBlank = (text: string) => !/\S/.test(text);
const emptyBody = () => badInput('the request body is empty; send the JSON form of a dataset');

function parseWhole(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badInput(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** JSON.parse, or undefined when the text is not JSON (the caller then parses the whole form for the error). */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The stored form from a split one: the skeleton checked as a dataset (its tables' rows empty), then
 * each piece of rows parsed, checked and written again as `JSON.stringify` writes it, and let go.
 * Undefined when a part is not JSON.
 */
function storedFromSplit(split: SplitForm): StoredForm | undefined {
  const skeleton = parseOrUndefined(split.skeleton);
  if (skeleton === undefined) return undefined;
  const dataset = decodeDataset(skeleton);
  // Each table's rows stand in as a unique string until the tables' text is written around them.
  const markers = new Map<string, string>();
  for (const { table, pieces } of split.rows) {
    const columns = dataset.tables[table]!.columns;
    const written: string[] = [];
    let firstRow = 0;
    for (const piece of pieces) {
      const rows = parseOrUndefined(`[${piece}]`);
      if (!Array.isArray(rows)) return undefined;
      checkRows(table, columns, rows, firstRow);
      firstRow += rows.length;
      if (rows.length > 0) written.push(JSON.stringify(rows).slice(1, -1));
    }
    const marker = `rows ${randomUUID()}`;
    markers.set(JSON.stringify(marker), `[${written.join(',')}]`);
    (dataset.tables[table] as { rows: unknown }).rows = marker;
  }
  let tablesJson = JSON.stringify(dataset.tables);
  for (const [marker, rowsJson] of markers) {
    const at = tablesJson.indexOf(marker);
    tablesJson = `${tablesJson.slice(0, at)}${rowsJson}${tablesJson.slice(at + marker.length)}`;
  }
  return { key: dataset.key, kind: dataset.kind, createdAt: dataset.createdAt, tablesJson };
}

/**
 * A data source's `decode()` failure as a 400. The table is named when known: from a `table` property
 * on the error, else from the first table the default checks find wrong in the input.
 */
function decodeError(err: unknown, json: unknown): ScenaristError {
  if (err instanceof ScenaristError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const table = typeof (err as { table?: unknown } | null)?.table === 'string' ? (err as { table: string }).table : undefined;
  const where = table !== undefined ? ` (table '${table}')` : suspectTable(json);
  return badInput(`the data source could not decode the dataset${where}: ${message}`);
}

function suspectTable(json: unknown): string {
  const tables = typeof json === 'object' && json !== null ? (json as { tables?: unknown }).tables : undefined;
  if (typeof tables !== 'object' || tables === null) return '';
  try {
    checkTables(tables);
  } catch (err) {
    const match = err instanceof ScenaristError ? /^table "((?:[^"\\]|\\.)*)"/.exec(err.message) : null;
    if (match) return ` (table '${match[1]}')`;
  }
  return '';
}
