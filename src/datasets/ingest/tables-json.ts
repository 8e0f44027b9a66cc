import type { Cell, Column } from '../../domain/dataset-model.js';

/** A table whose rows the JSON writer may let go of as it writes them. */
export interface ConsumableTable {
  readonly columns: readonly Column[];
  readonly rows: (readonly Cell[] | undefined)[];
}

export interface PieceSizes {
  /** Rows written per piece: enough that joining the pieces costs little, few enough that each is small. */
  readonly rowsPerPiece: number;
  /**
   * Below this many rows in all, the tables are written in one `JSON.stringify`: their memory does not
   * matter, and cutting the text into pieces and joining them costs about as much again as writing it.
   */
  readonly piecesFromRows: number;
}

const PIECE_SIZES: PieceSizes = { rowsPerPiece: 20_000, piecesFromRows: 200_000 };

/**
 * The JSON text of `tables`, exactly as `JSON.stringify` writes it. For large tables it is built piece by
 * piece while each row is dropped once written: a million-row table and its JSON are then never both
 * whole in memory (the rows can be collected while the text grows), which keeps a large upload's peak
 * memory down. The tables are consumed: their rows are gone afterwards.
 */
export function tablesJsonConsuming(tables: Readonly<Record<string, ConsumableTable>>, sizes: PieceSizes = PIECE_SIZES): string {
  const entries = Object.entries(tables);
  const rowCount = entries.reduce((sum, [, table]) => sum + table.rows.length, 0);
  if (rowCount < sizes.piecesFromRows) return JSON.stringify(tables);
  const pieces: string[] = [];
  let separator = '{';
  for (const [name, table] of entries) {
    pieces.push(`${separator}${JSON.stringify(name)}:{"columns":${JSON.stringify(table.columns)},"rows":[`);
    separator = ',';
    const { rows } = table;
    for (let start = 0; start < rows.length; start += sizes.rowsPerPiece) {
      const end = Math.min(rows.length, start + sizes.rowsPerPiece);
      const piece = JSON.stringify(rows.slice(start, end));
      pieces.push(start === 0 ? piece.slice(1, -1) : `,${piece.slice(1, -1)}`);
      rows.fill(undefined, start, end);
    }
    pieces.push(']}');
  }
  pieces.push(separator === '{' ? '{}' : '}');
  return pieces.join('');
}
