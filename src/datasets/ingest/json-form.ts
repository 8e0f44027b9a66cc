import { randomUUID } from 'node:crypto';
import { ScenaristError } from '../../errors.js';
import type { DomainRegistry } from '../../domain/registry.js';
import { checkRows, checkTables, decodeDataset, encodeDataset } from '../codec.js';
import type { Dataset, DatasetKind } from '../../domain/dataset-model.js';
import { checkJsonDepth, splitJsonForm, type SplitForm } from './json-form-split.js';
import { joinTablesJson, storedTable, type StoredTable } from '../../store/table-contents.js';
import { errors } from '../../error-factories.js';
import { numberBeyondRange } from '../../model/json-number-range.js';

/** A dataset as it is stored: each table with its JSON text (`JSON.stringify` of the checked table). */
export interface StoredForm {
  readonly key: string;
  readonly kind: DatasetKind;
  readonly createdAt: string;
  readonly tables: readonly StoredTable[];
  /** The JSON text of the whole tables object, joined from `tables` when asked. */
  readonly tablesJson: string;
}

function storedForm(dataset: Omit<Dataset, 'tables'>, tables: readonly StoredTable[]): StoredForm {
  return {
    key: dataset.key,
    kind: dataset.kind,
    createdAt: dataset.createdAt,
    tables,
    get tablesJson() {
      return joinTablesJson(tables);
    },
  };
}

/**
 * A dataset to store from the text of its JSON form, checked like any other input; every problem is a
 * 400 (`ScenaristError` BAD_INPUT). The default form is parsed a piece of rows at a time (see
 * `splitJsonForm`), so its time grows in step with its rows; a domain's own form is decoded whole.
 */
export function readJsonForm(domain: DomainRegistry, text: string): StoredForm {
  if (isBlank(text)) throw errors.datasetBodyEmpty();
  // One pass checks the nesting depth, whichever way the form is then parsed.
  let split: SplitForm | undefined;
  if (domain.dataSource?.decode) checkJsonDepth(text);
  else split = splitJsonForm(text);
  // A cell of 1e309 would be parsed as Infinity and stored as null: refused as sent, as on every JSON route.
  const huge = numberBeyondRange(text);
  if (huge !== undefined) {
    parseWhole(text);
    throw errors.bodyNumberOutOfRange(huge.literal, `character ${huge.offset + 1}`);
  }
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
  const dataset = decodeJsonForm(domain, parseWhole(text));
  return storedForm(dataset, Object.entries(dataset.tables).map(([name, table]) => storedTable(name, table)));
}

/**
 * A dataset from its parsed JSON form: decoded by the domain's data source when it has its own form,
 * and checked like any other input. Every problem is a 400 (`ScenaristError` BAD_INPUT).
 */
function decodeJsonForm(domain: DomainRegistry, json: unknown): Dataset {
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
    throw errors.datasetDecodeReturned(decoded === null ? 'null' : typeof decoded);
  }
  return decodeDataset(encodeDataset(decoded));
}

/** Stops at the first character that is not white space (trimming would copy a large text). */
const isBlank = (text: string) => !/\S/.test(text);

function parseWhole(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw errors.bodyNotJson((err as Error).message);
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
  const rowCounts = new Map<string, number>();
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
    rowCounts.set(table, firstRow);
    const marker = `rows ${randomUUID()}`;
    markers.set(JSON.stringify(marker), `[${written.join(',')}]`);
    (dataset.tables[table] as { rows: unknown }).rows = marker;
  }
  // Each table's text is written without its rows, and the marker found in that small text is replaced
  // by the rows once: splicing into the whole would copy the large text for every table.
  const tables = Object.entries(dataset.tables).map(([name, table]) => {
    const marker = typeof table.rows === 'string' ? JSON.stringify(table.rows) : '';
    const rowsJson = markers.get(marker);
    if (rowsJson === undefined) return storedTable(name, table);
    const outline = JSON.stringify(table);
    const at = outline.indexOf(marker);
    const json = `${outline.slice(0, at)}${rowsJson}${outline.slice(at + marker.length)}`;
    return { name, json, rows: rowCounts.get(name) ?? 0, columns: table.columns };
  });
  return storedForm(dataset, tables);
}

/**
 * A data source's `decode()` failure as a 400. The table is named when known: from a `table` property
 * on the error, else from the first table the default checks find wrong in the input.
 */
function decodeError(err: unknown, json: unknown): ScenaristError {
  if (err instanceof ScenaristError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const table = typeof (err as { table?: unknown } | null)?.table === 'string' ? (err as { table: string }).table : undefined;
  return errors.datasetDecodeFailed(message, table ?? suspectTable(json));
}

function suspectTable(json: unknown): string | undefined {
  const tables = typeof json === 'object' && json !== null ? (json as { tables?: unknown }).tables : undefined;
  if (typeof tables !== 'object' || tables === null) return undefined;
  try {
    checkTables(tables);
  } catch (err) {
    const match = err instanceof ScenaristError ? /^table "((?:[^"\\]|\\.)*)"/.exec(err.message) : null;
    if (match) return match[1];
  }
  return undefined;
}

