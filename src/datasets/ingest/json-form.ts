import { badInput, ScenaristError } from '../../errors.js';
import type { DomainRegistry } from '../../domain/registry.js';
import { checkTables, decodeDataset, encodeDataset } from '../codec.js';
import type { Dataset } from '../model.js';

/** Deeper than this, a JSON form is not a dataset (the default form nests 5 levels); and serialising it again would overflow the stack. */
export const MAX_JSON_DEPTH = 100;

/**
 * A dataset from the text of its JSON form: parsed, decoded by the domain's data source when it has
 * its own form, and checked like any other input. Every problem is a 400 (`ScenaristError` BAD_INPUT).
 */
export function decodeJsonForm(domain: DomainRegistry, text: string): Dataset {
  if (text.trim() === '') throw badInput('the request body is empty; send the JSON form of a dataset');
  checkDepth(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw badInput(`the request body is not valid JSON: ${(err as Error).message}`);
  }
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

/** Rejects nesting deeper than `MAX_JSON_DEPTH` before parsing: one pass, strings skipped. */
function checkDepth(text: string): void {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (at++; at < text.length; at++) {
        const s = text.charCodeAt(at);
        if (s === 0x5c) at++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw badInput(`the JSON nests deeper than ${MAX_JSON_DEPTH} levels; a dataset's JSON form is far flatter`);
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
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
