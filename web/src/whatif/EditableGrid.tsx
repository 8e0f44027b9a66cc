import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useRowWindow } from '../components/use-row-window.ts';
import type { Column } from '../api/types.ts';
import { cellText } from '../csv.ts';
import { WindowPadRow } from '../components/WindowPadRow.tsx';

const ROW_HEIGHT = 34;

type Row = readonly unknown[];

export interface EditableGridProps {
  caption: string;
  columns: readonly Column[];
  rows: readonly Row[];
  /** A cell's new text (not yet parsed: the caller reads it as the column's type). */
  onCellChange: (row: Row, column: Column, text: string) => void;
  onDeleteRow: (row: Row) => void;
  /** How a row is named to a screen reader and in its Delete button ("location A-01-001-1"). */
  rowName: (row: Row) => string;
}

/**
 * The what-if editor's grid: TanStack Table lays out the columns, TanStack Virtual keeps only the rows
 * in view in the DOM (100 000 rows open as fast as 100). Each cell is a text field; a changed value is
 * handed up when the field loses focus or on Enter (Escape puts the value back), and each row has a
 * Delete button. Rows are the arrays of the dataset's JSON form, never copied into objects.
 */
export function EditableGrid({ caption, columns, rows, onCellChange, onDeleteRow, rowName }: EditableGridProps) {
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<Row>();
    return columns.map((c, i) =>
      helper.accessor((row) => row[i], {
        id: `${i}:${c.name}`,
        header: () => (
          <>
            {c.name}
            <span className="muted small"> {c.type}</span>
          </>
        ),
      }),
    );
  }, [columns]);
  const { viewport, items, padTop, padBottom } = useRowWindow(rows.length, ROW_HEIGHT, 10);
  // The table model holds only the rows in view: TanStack's row model costs per row (13 s for 100 000
  // rows on the busy development machine, where the window of ~30 rows costs nothing).
  // The window must be a stable array while it shows the same rows: TanStack Table rebuilds its row model
  // for new data, and (with its default auto-reset of paging) sets its state again, which would render again.
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  const windowRows = useMemo(() => rows.slice(first, last + 1), [rows, first, last]);
  const table = useReactTable({
    data: windowRows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (_row, i) => String(first + i),
    autoResetAll: false,
  });
  const tableRows = table.getRowModel().rows;
  const span = columns.length + 1;

  return (
    <div className="grid-viewport edit-grid" ref={viewport} tabIndex={0} role="region" aria-label={caption} data-testid="edit-grid">
      <table aria-rowcount={rows.length + 1}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
              <th scope="col">
                <span className="sr-only">Row actions</span>
              </th>
            </tr>
          ))}
        </thead>
        <tbody>
          <WindowPadRow height={padTop} span={span} />
          {items.map((item, i) => {
            const row = tableRows[i]!;
            const name = rowName(row.original);
            return (
              <tr key={item.index} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }} data-testid="edit-row">
                {row.getVisibleCells().map((cell, i) => {
                  const column = columns[i]!;
                  const text = shownText(cell.getValue());
                  return (
                    <td key={cell.id}>
                      <input
                        // Keyed by the value: an edit made elsewhere (a filter's bulk change) shows at once.
                        key={text}
                        className="cell"
                        defaultValue={text}
                        aria-label={`${column.name} of ${name}`}
                        inputMode={column.type === 'integer' || column.type === 'float' ? 'decimal' : undefined}
                        size={Math.max(4, Math.min(18, text.length + 1))}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') e.currentTarget.blur();
                          if (e.key === 'Escape') e.currentTarget.value = text;
                        }}
                        onBlur={(e) => {
                          if (e.currentTarget.value !== text) onCellChange(row.original, column, e.currentTarget.value);
                        }}
                      />
                    </td>
                  );
                })}
                <td>
                  <button type="button" className="link" onClick={() => onDeleteRow(row.original)} aria-label={`Delete ${name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
          <WindowPadRow height={padBottom} span={span} />
        </tbody>
      </table>
    </div>
  );
}

/**
 * A cell as its field shows it: a scaled float without binary noise (339.207, not 339.20700000000005:
 * 15 significant digits, what a double holds exactly), anything else as its text.
 */
function shownText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Number(value.toPrecision(15))) : cellText(value);
}
