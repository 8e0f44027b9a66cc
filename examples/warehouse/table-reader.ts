import type { Cell, Dataset, Table } from '../../src/datasets/model.js';

/**
 * Column access by name for one table. Datasets can arrive through ETL (typed by the schemas) or through
 * `from-json` (typed only by their own declaration), so every read checks the cell and a bad one fails
 * the run with a message naming table, column and row instead of producing NaN travel distances.
 */
export interface TableReader {
  readonly table: string;
  readonly rowCount: number;
  string(column: string): (row: number) => string;
  optionalString(column: string): (row: number) => string | null;
  number(column: string): (row: number) => number;
  optionalNumber(column: string, fallback: number): (row: number) => number;
}

export function tableReader(dataset: Dataset, name: string): TableReader {
  const table = dataset.tables[name];
  if (!table) {
    const present = Object.keys(dataset.tables).join(', ') || 'none';
    throw new Error(`dataset '${dataset.key}' has no table '${name}' (tables: ${present})`);
  }
  const rows = table.rows;
  const where = (column: string, row: number) => `table '${name}', column '${column}', row ${row + 1}`;
  const cellsOf = (column: string) => requiredIndex(table, name, column);

  return {
    table: name,
    rowCount: rows.length,
    string(column) {
      const j = cellsOf(column);
      return (i) => {
        const cell = cellAt(rows, i, j);
        if (cell === null || cell === '') throw new Error(`${where(column, i)}: a value is required`);
        return String(cell);
      };
    },
    optionalString(column) {
      const j = table.columns.findIndex((c) => c.name === column);
      return (i) => {
        const cell = j < 0 ? null : cellAt(rows, i, j);
        return cell === null || cell === '' ? null : String(cell);
      };
    },
    number(column) {
      const j = cellsOf(column);
      return (i) => finite(cellAt(rows, i, j), () => where(column, i));
    },
    optionalNumber(column, fallback) {
      const j = table.columns.findIndex((c) => c.name === column);
      return (i) => {
        const cell = j < 0 ? null : cellAt(rows, i, j);
        return cell === null ? fallback : finite(cell, () => where(column, i));
      };
    },
  };
}

function requiredIndex(table: Table, name: string, column: string): number {
  const j = table.columns.findIndex((c) => c.name === column);
  if (j < 0) throw new Error(`table '${name}' has no column '${column}'`);
  return j;
}

function cellAt(rows: Table['rows'], i: number, j: number): Cell {
  return rows[i]?.[j] ?? null;
}

function finite(cell: Cell, where: () => string): number {
  const value = typeof cell === 'number' ? cell : typeof cell === 'string' && cell.trim() !== '' ? Number(cell) : NaN;
  if (!Number.isFinite(value)) throw new Error(`${where()}: expected a number, got ${JSON.stringify(cell)}`);
  return value;
}
