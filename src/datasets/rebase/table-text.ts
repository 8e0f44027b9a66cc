import type { Cell, Table } from '../../domain/dataset-model.js';
import type { StoredTable } from '../../store/table-contents.js';

type Row = readonly Cell[];

/**
 * The JSON text of each row of a table serialized before, by the table's rows array (one entry per
 * table, not per row: a map keyed by each of millions of rows cost more to look up and to collect
 * than serializing them). A rebase writes table after table that share most of their rows: each is
 * its parent's table with some edits applied, and edits never change a row or a table's rows array
 * in place (an updated row is a new array, a table is copied when first edited: see
 * `src/datasets/edits/apply-edits.ts`), keeping the order of the rows they leave (inserted rows
 * go last, deleted ones are taken out). So the texts of a table's rows are found by walking it beside
 * the table it was made from and reusing the text of every row that is the very same array.
 */
const rowTextsOf = new WeakMap<readonly Row[], readonly string[]>();

/** How far ahead in the table it was made from a row is looked for: past the rows an edit deleted there. */
const LOOKAHEAD = 8;

function rowTexts(rows: readonly Row[], from: readonly Row[] | undefined): readonly string[] {
  const cached = rowTextsOf.get(rows);
  if (cached) return cached;
  const known = from === undefined || from === rows ? undefined : rowTexts(from, undefined);
  const texts = new Array<string>(rows.length);
  let j = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let text: string | undefined;
    if (known !== undefined) {
      if (from![j] === row) text = known[j++];
      else {
        for (let k = 1; k <= LOOKAHEAD && j + k < from!.length; k++) {
          if (from![j + k] !== row) continue;
          text = known[j + k];
          j += k + 1;
          break;
        }
      }
    }
    if (text === undefined) {
      text = JSON.stringify(row);
      // A changed row takes the place of the one it replaced; an inserted one (last) takes none.
      if (known !== undefined && rows[i + 1] !== from![j]) j++;
    }
    texts[i] = text;
  }
  rowTextsOf.set(rows, texts);
  return texts;
}

/**
 * A table to store, its text exactly as `JSON.stringify({ columns, rows })` writes it (so its content
 * hash is the same). `from`: the table it was made from by edits, whose rows' texts are reused.
 */
export function storedTableOf(name: string, table: Table, from?: Table): StoredTable {
  const json = `{"columns":${JSON.stringify(table.columns)},"rows":[${rowTexts(table.rows, from?.rows).join(',')}]}`;
  return { name, json, rows: table.rows.length, columns: table.columns };
}
