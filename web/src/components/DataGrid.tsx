import { getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { Column } from '../api/types.ts';

const ROW_HEIGHT = 30;

/**
 * A table of (possibly 100 000s of) rows: TanStack Table for the model, TanStack Virtual so only the
 * rows in view (plus a few) are in the DOM; scrolling stays smooth whatever the row count.
 */
export function DataGrid({ columns, rows, caption }: { columns: readonly Column[]; rows: readonly unknown[][]; caption: string }) {
  const columnDefs = useMemo<ColumnDef<unknown[]>[]>(
    () =>
      columns.map((c, i) => ({
        id: `${i}:${c.name}`,
        header: c.name,
        accessorFn: (row: unknown[]) => row[i],
        cell: (info) => formatCell(info.getValue()),
        meta: { type: c.type },
      })),
    [columns],
  );
  const table = useReactTable({ data: rows as unknown[][], columns: columnDefs, getCoreRowModel: getCoreRowModel() });
  const model = table.getRowModel().rows;
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: model.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // happy-dom and first paint have no layout: still render a first screenful.
    initialRect: { width: 1000, height: 420 },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div className="grid-viewport" ref={viewport} tabIndex={0} role="region" aria-label={caption}>
      <table aria-rowcount={model.length + 1}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {String(header.column.columnDef.header)}
                  <span className="muted small"> {(header.column.columnDef.meta as { type: string }).type}</span>
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: padTop, padding: 0, border: 0 }} colSpan={columns.length} />
            </tr>
          )}
          {items.map((item) => {
            const row = model[item.index]!;
            return (
              <tr key={row.id} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{formatCell(cell.getValue())}</td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: padBottom, padding: 0, border: 0 }} colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
