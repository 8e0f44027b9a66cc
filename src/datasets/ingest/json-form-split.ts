import { errors } from '../../error-factories.js';

/**
 * Deeper than this, a JSON form is not a dataset (the default form nests 5 levels); and serialising it
 * again would overflow the stack. The same bound as every JSON body's (`MAX_BODY_DEPTH` of the HTTP
 * layer), and the same refusal: from-json answers BODY_TOO_DEEP as every other route does.
 */
export const MAX_JSON_DEPTH = 100;

/** Rows parsed at a time: small enough to die young in the heap, large enough that the calls cost nothing. */
export const ROWS_PER_PIECE = 10_000;

/** The text of one table's `rows`, cut between rows into pieces of at most `ROWS_PER_PIECE` rows. */
export interface RowsText {
  readonly table: string;
  /** Each piece is the text between two row separators: the rows with their commas, without brackets. */
  readonly pieces: readonly string[];
}

/**
 * A JSON form of the default shape (`{ ..., "tables": { <name>: { ..., "rows": [...] } } }`), with the
 * text of every table's rows taken out: `skeleton` is the form with each of those arrays left empty.
 */
export interface SplitForm {
  readonly skeleton: string;
  readonly rows: readonly RowsText[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** The depth of the `rows` arrays: root object 1, `tables` 2, a table 3, its rows 4. */
const ROWS_DEPTH = 4;

/** One open object or array at depths 1 to 3, where the keys decide whether a `rows` array is a table's. */
interface Level {
  readonly isObject: boolean;
  /** Keys seen in this object: JSON.parse keeps the last of duplicates, which a split would not. */
  readonly keys: Set<string>;
  key: string | undefined;
  expectsKey: boolean;
}

/**
 * Finds the rows of every table in one pass over the text, checking its nesting depth on the way (a
 * 400 BODY_TOO_DEEP past `MAX_JSON_DEPTH`). Parsing a million rows at once keeps them all alive while the heap grows,
 * so the garbage collector walks them again and again and the time grows faster than the rows; parsed
 * piece by piece, each piece is let go before the next. Answers undefined when the text is not of the
 * default shape, or repeats a key on the way to the rows: then it is parsed whole. The pieces are not
 * checked to be JSON here; a piece that is not fails its own parse.
 */
export function splitJsonForm(text: string): SplitForm | undefined {
  return scan(text, true);
}

/** Only the depth check of `splitJsonForm`, for a form parsed whole (a domain's own form). */
export function checkJsonDepth(text: string): void {
  scan(text, false);
}

function scan(text: string, split: boolean): SplitForm | undefined {
  const levels: Level[] = [];
  const rows: RowsText[] = [];
  const skeleton: string[] = [];
  let skeletonFrom = 0;
  let depth = 0;
  // A key repeated on the way to the rows (JSON.parse keeps the last one, which a split would not
  // know), or rows whose last piece is empty (a trailing comma the pieces' parses would not see).
  let unusual = false;
  // Inside a table's rows array: where the current piece began, and how many rows it has so far.
  let rowsOf: string | undefined;
  let pieces: string[] = [];
  let pieceStart = 0;
  let pieceRows = 0;

  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      const start = at;
      at = stringEnd(text, at);
      if (depth > 0 && depth < ROWS_DEPTH) {
        const level = levels[depth - 1]!;
        if (level.expectsKey) {
          const key = keyText(text, start, at);
          if (key === undefined || level.keys.has(key)) unusual = true;
          else level.keys.add(key);
          level.key = key;
          level.expectsKey = false;
        }
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) throw errors.bodyTooDeep(MAX_JSON_DEPTH, at);

      if (depth < ROWS_DEPTH) {
        levels[depth - 1] = { isObject: c === OPEN_OBJECT, keys: new Set(), key: undefined, expectsKey: c === OPEN_OBJECT };
      } else if (split && depth === ROWS_DEPTH && c === OPEN_ARRAY) {
        const table = tableOfRows(levels);
        if (table !== undefined) {
          rowsOf = table;
          pieces = [];
          pieceStart = at + 1;
          pieceRows = 0;
          skeleton.push(text.slice(skeletonFrom, at + 1));
        }
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth === ROWS_DEPTH && rowsOf !== undefined) {
        const last = text.slice(pieceStart, at);
        if (pieces.length > 0 && last.trim() === '') unusual = true;
        pieces.push(last);
        rows.push({ table: rowsOf, pieces });
        rowsOf = undefined;
        skeletonFrom = at;
      }
      depth--;
    } else if (c === COMMA) {
      if (depth === ROWS_DEPTH && rowsOf !== undefined) {
        if (++pieceRows === ROWS_PER_PIECE) {
          pieces.push(text.slice(pieceStart, at));
          pieceStart = at + 1;
          pieceRows = 0;
        }
      } else if (depth > 0 && depth < ROWS_DEPTH) {
        const level = levels[depth - 1]!;
        level.expectsKey = level.isObject;
      }
    }
  }
  if (unusual || rows.length === 0 || rowsOf !== undefined) return undefined;
  skeleton.push(text.slice(skeletonFrom));
  return { skeleton: skeleton.join(''), rows };
}

/** The index of the quote closing the string opened at `open` (the text's length when it is never closed). */
function stringEnd(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); ; quote = text.indexOf('"', quote + 1)) {
    if (quote === -1) return text.length;
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}

/** The table whose `rows` an array opened at depth 4 is: the path must be `tables.<name>.rows`. */
function tableOfRows(levels: readonly Level[]): string | undefined {
  const [root, tables, table] = levels;
  if (!root?.isObject || !tables?.isObject || !table?.isObject) return undefined;
  if (root.key !== 'tables' || table.key !== 'rows') return undefined;
  return tables.key;
}

/** A key's value from its quoted text (`start` and `end` at the quotes); undefined when it is not a JSON string. */
function keyText(text: string, start: number, end: number): string | undefined {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    const parsed: unknown = JSON.parse(text.slice(start, end + 1));
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
