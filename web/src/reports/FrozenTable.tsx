import type { TableSpec } from '../api/views.ts';
import { columnHeading, isNumeric } from '../views/cells.ts';
import { TableRows } from '../views/TableRows.tsx';

/**
 * A table view as a report froze it: every row, in the view's order, with the cells formatted as the
 * live table formats them (`views/cells.ts`). No paging: the report shows, and prints, the table whole.
 */
export function FrozenTable({ spec, title }: { spec: TableSpec; title: string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={`Rows of ${title}`} data-testid="frozen-table">
      <table className="plain view-table">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            {spec.columns.map((c) => (
              <th key={c.name} scope="col" className={isNumeric(c) ? 'num' : undefined}>
                {columnHeading(c)}
              </th>
            ))}
          </tr>
        </thead>
        <TableRows spec={spec} />
      </table>
      <p className="small muted">{spec.rows.length === 0 ? 'No rows' : `${spec.rows.length.toLocaleString()} rows`}</p>
    </div>
  );
}
