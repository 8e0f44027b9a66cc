import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/context.tsx';
import { renderView, targetKey, type ViewTarget } from '../api/views.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { columnHeading, isNumeric } from './cells.ts';
import { TableRows } from './TableRows.tsx';

const PAGE_SIZES = [25, 100, 500] as const;
/** A page the reader takes in at a glance; the server's own default (100) is a choice away. */
const DEFAULT_PAGE = 25;

/**
 * A table view, paged and sorted by the server: `?limit=` rows a page, `?cursor=` for the next page
 * (the cursors seen are kept to go back), `?sort=column` or `-column` from the header buttons.
 */
export function TableView({ target, name, title }: { target: ViewTarget; name: string; title: string }) {
  const api = useApi();
  const limitId = useId();
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE);
  const [sort, setSort] = useState<string | undefined>(undefined);
  // cursors[n] opens page n (page 0 has none).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState(0);
  const cursor = cursors[page];
  const view = useQuery({
    queryKey: [...targetKey(target), name, limit, cursor ?? '', sort ?? ''],
    queryFn: () => renderView(api, target, name, { limit, cursor, sort }),
    placeholderData: keepPreviousData,
  });
  const spec = view.data?.kind === 'table' ? view.data.spec : undefined;

  const restart = () => {
    setCursors([undefined]);
    setPage(0);
  };
  const toggleSort = (column: string) => {
    const current = spec?.sort;
    setSort(current?.column === column && !current.descending ? `-${column}` : column);
    restart();
  };
  const next = () => {
    if (!spec?.next_cursor) return;
    const nextCursor = spec.next_cursor;
    setCursors((list) => [...list.slice(0, page + 1), nextCursor]);
    setPage(page + 1);
  };

  if (!spec) return view.error ? <ErrorNote error={view.error} /> : <p role="status">Loading table…</p>;
  const first = page * limit;
  return (
    <div data-testid="table-view">
      <ErrorNote error={view.error} />
      <div className="table-scroll">
        <table className="plain view-table">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              {spec.columns.map((c) => {
                const sorted = spec.sort?.column === c.name ? (spec.sort.descending ? 'descending' : 'ascending') : undefined;
                return (
                  <th key={c.name} scope="col" className={isNumeric(c) ? 'num' : undefined} aria-sort={sorted ?? 'none'}>
                    <button type="button" className="sort" onClick={() => toggleSort(c.name)}>
                      {columnHeading(c)}
                      <span aria-hidden="true">{sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ''}</span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <TableRows spec={spec} firstIndex={first} />
        </table>
      </div>
      <div className="row small" style={{ marginTop: '0.5rem' }}>
        <span data-testid="table-range" aria-live="polite">
          {spec.total === 0 ? 'No rows' : `Rows ${(first + 1).toLocaleString()}–${(first + spec.rows.length).toLocaleString()} of ${spec.total.toLocaleString()}`}
        </span>
        <span className="spacer" />
        <label htmlFor={limitId}>Rows per page</label>
        <select
          id={limitId}
          value={limit}
          onChange={(e) => {
            setLimit(Number(e.target.value));
            restart();
          }}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => setPage(page - 1)} disabled={page === 0 || view.isFetching}>
          Previous
        </button>
        <button type="button" onClick={next} disabled={!spec.next_cursor || view.isFetching}>
          Next
        </button>
      </div>
    </div>
  );
}
