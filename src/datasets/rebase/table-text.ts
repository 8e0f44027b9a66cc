import type { Cell, Table } from '../../domain/dataset-model.js';
import type { StoredTable } from '../../store/table-contents.js';

/**
 * The JSON text of each row serialized so far, by the row itself. Edits never change a row in place
 * (an updated row is a new array, see `src/domain/edits/edit-rows.ts`), so a row keeps its text; a
 * rebase writes table after table that share most of their rows (a tree's datasets all start from
 * one master), and joins the texts of the rows it has seen instead of serializing them again.
 */
const rowTexts = new WeakMap<readonly Cell[], string>();

function rowText(row: readonly Cell[]): string {
  let text = rowTexts.get(row);
  if (text === undefined) rowTexts.set(row, (text = JSON.stringify(row)));
  return text;
}

/** A table to store, its text exactly as `JSON.stringify({ columns, rows })` writes it (so its content hash is the same). */
export function storedTableOf(name: string, table: Table): StoredTable {
  const json = `{"columns":${JSON.stringify(table.columns)},"rows":[${table.rows.map(rowText).join(',')}]}`;
  return { name, json, rows: table.rows.length, columns: table.columns };
}
