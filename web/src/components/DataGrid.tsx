import { cellText } from '../csv.ts';
import { useRowWindow } from './use-row-window.ts';
import type { Column } from '../api/types.ts';
import { WindowPadRow } from './WindowPadRow.tsx';

const ROW_HEIGHT = 30;

/**
 * A table of (possibly 100 000s of) rows: TanStack Virtual keeps only the rows in view (plus a few)
 * in the DOM, and rows are read straight from the arrays of the dataset's JSON form, with no per-row
 * model objects, so opening and scrolling a large table stays smooth whatever the row count.
 */
export function DataGrid({ columns, rows, caption }: { columns: readonly Column[]; rows: readonly unknown[][]; caption: string }) {
  const { viewport, items, padTop, padBottom } = useRowWindow(rows.length, ROW_HEIGHT, 12);

  return (
    <div className="grid-viewport" ref={viewport} tabIndex={0} role="region" aria-label={caption}>
      <table aria-rowcount={rows.length + 1}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c, i) => (
              <th key={`${i}:${c.name}`} scope="col">
                {c.name}
                <span className="muted small"> {c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <WindowPadRow height={padTop} span={columns.length} />
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <tr key={item.index} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                {columns.map((c, i) => (
                  <td key={`${i}:${c.name}`}>{formatCell(row[i])}</td>
                ))}
              </tr>
            );
          })}
          <WindowPadRow height={padBottom} span={columns.length} />
        </tbody>
      </table>
    </div>
  );
}

function formatCell(value: unknown): string {
  return cellText(value);
}
