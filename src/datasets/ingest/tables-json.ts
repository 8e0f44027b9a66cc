import type { Cell, Column } from '../../domain/dataset-model.js';
import { joinTablesJson, type StoredTable } from '../../store/table-contents.js';

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
 * The JSON text of `tables`, exactly as `JSON.stringify` writes it (see `storedTablesConsuming`). The
 * tables are consumed: their rows are gone afterwards.
 */
export function tablesJsonConsuming(tables: Readonly<Record<string, ConsumableTable>>, sizes: PieceSizes = PIECE_SIZES): string {
  return joinTablesJson(storedTablesConsuming(tables, sizes));
}

/**
 * Each table with its JSON text, exactly as `JSON.stringify` writes the table. For large tables the text
 * is built piece by piece while each row is dropped once written: a million-row table and its JSON are
 * then never both whole in memory (the rows can be collected while the text grows), which keeps a large
 * upload's peak memory down. The tables are consumed: their rows are gone afterwards.
 */
export function storedTablesConsuming(tables: Readonly<Record<string, ConsumableTable>>, sizes: PieceSizes = PIECE_SIZES): StoredTable[] {
  const entries = Object.entries(tables);
  const rowCount = entries.reduce((sum, [, table]) => sum + table.rows.length, 0);
  const whole = rowCount < sizes.piecesFromRows;
  return entries.map(([name, table]) => {
    const rows = table.rows.length;
    return { name, json: whole ? JSON.stringify(table) : tableJsonConsuming(table, sizes), rows, columns: table.columns };
  });
}

function tableJsonConsuming(table: ConsumableTable, sizes: PieceSizes): string {
  const pieces: string[] = [`{"columns":${JSON.stringify(table.columns)},"rows":[`];
  const { rows } = table;
  for (let start = 0; start < rows.length; start += sizes.rowsPerPiece) {
    const end = Math.min(rows.length, start + sizes.rowsPerPiece);
    const piece = JSON.stringify(rows.slice(start, end));
    pieces.push(start === 0 ? piece.slice(1, -1) : `,${piece.slice(1, -1)}`);
    rows.fill(undefined, start, end);
  }
  pieces.push(']}');
  return pieces.join('');
}
