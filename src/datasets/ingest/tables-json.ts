import type { Cell, Column } from '../model.js';

/** A table whose rows the JSON writer may let go of as it writes them. */
export interface ConsumableTable {
  readonly columns: readonly Column[];
  readonly rows: (readonly Cell[] | undefined)[];
}

/** Rows written per piece: large enough that joining costs nothing, small enough that a piece is small. */
const ROWS_PER_PIECE = 20_000;

/**
 * The JSON text of `tables`, exactly as `JSON.stringify` writes it, built piece by piece while each row
 * is dropped once written: a million-row table and its JSON are then never both whole in memory (the
 * rows can be collected while the text grows), which keeps a large upload's peak memory down. The
 * tables are consumed: their rows are gone afterwards.
 */
export function tablesJsonConsuming(tables: Readonly<Record<string, ConsumableTable>>): string {
  const pieces: string[] = [];
  let separator = '{';
  for (const [name, table] of Object.entries(tables)) {
    pieces.push(`${separator}${JSON.stringify(name)}:{"columns":${JSON.stringify(table.columns)},"rows":[`);
    separator = ',';
    const { rows } = table;
    for (let start = 0; start < rows.length; start += ROWS_PER_PIECE) {
      const end = Math.min(rows.length, start + ROWS_PER_PIECE);
      const piece = JSON.stringify(rows.slice(start, end));
      pieces.push(start === 0 ? piece.slice(1, -1) : `,${piece.slice(1, -1)}`);
      rows.fill(undefined, start, end);
    }
    pieces.push(']}');
  }
  pieces.push(separator === '{' ? '{}' : '}');
  return pieces.join('');
}
