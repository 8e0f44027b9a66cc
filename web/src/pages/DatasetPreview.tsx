import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { DataGrid } from '../components/DataGrid.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { focusedRows } from '../data/row-focus.ts';
import { DatasetOrigin } from '../whatif/DatasetOrigin.tsx';
import { primaryKeys } from '../whatif/row-where.ts';

const PAGE_SIZES = [1_000, 10_000, 100_000] as const;

/**
 * One dataset's tables: a table picker, a page of rows (virtualised), and the pager. `focus` opens it at
 * one table and shows only the row named (a link from a violation), until "Show every row".
 */
export function DatasetPreview({ sid, datasetKey, focus }: { sid: string; datasetKey: string; focus?: { table: string; row?: string } }) {
  const api = useApi();
  const dataset = useQuery({ queryKey: keys.dataset(sid, datasetKey), queryFn: () => api.dataset(sid, datasetKey) });
  const schemas = useQuery({ queryKey: keys.schemas(sid), queryFn: () => api.schemas(sid), enabled: focus?.row !== undefined });
  const [table, setTable] = useState<string | null>(focus?.table ?? null);
  const [focusing, setFocusing] = useState(focus?.row !== undefined);
  const [pageSize, setPageSize] = useState<number>(10_000);
  const [page, setPage] = useState(0);
  const names = Object.keys(dataset.data?.tables ?? {});
  const current = table && names.includes(table) ? table : names[0];
  const form = current ? dataset.data?.tables[current] : undefined;
  const focused =
    focusing && focus?.row !== undefined && form && current === focus.table && schemas.data
      ? focusedRows(form.columns, form.rows, primaryKeys(schemas.data).get(current) ?? [], focus.row)
      : undefined;
  const rows = focused ?? form?.rows ?? [];
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const safePage = Math.min(page, pages - 1);
  const slice = rows.slice(safePage * pageSize, (safePage + 1) * pageSize);

  return (
    <section className="card" aria-labelledby="preview-title">
      <h2 id="preview-title" style={{ marginTop: 0 }}>
        Preview: {datasetKey}
      </h2>
      <ErrorNote error={dataset.error} />
      <DatasetOrigin sid={sid} datasetKey={datasetKey} />
      {dataset.isPending && <p role="status">Loading…</p>}
      {names.length > 0 && (
        <div className="row" role="tablist" aria-label="Tables" style={{ marginBottom: '0.5rem' }}>
          {names.map((n) => (
            <button
              key={n}
              type="button"
              role="tab"
              aria-selected={n === current}
              className={n === current ? 'primary' : ''}
              onClick={() => {
                setTable(n);
                setPage(0);
              }}
            >
              {n} <span className="small">({dataset.data!.tables[n]!.rows.length.toLocaleString()})</span>
            </button>
          ))}
        </div>
      )}
      {focused && (
        <p className="small" data-testid="focused-row">
          {focused.length === 0 ? `${current} has no row ${focus?.row}.` : `Showing the row ${focus?.row} of ${current}.`}{' '}
          <button type="button" className="link" onClick={() => setFocusing(false)}>
            Show every row
          </button>
        </p>
      )}
      {form && current && (
        <div role="tabpanel" aria-label={current}>
          <div className="row small" style={{ marginBottom: '0.5rem' }}>
            <span data-testid="row-count">
              {rows.length.toLocaleString()} rows × {form.columns.length} columns
            </span>
            <span className="spacer" />
            <label htmlFor="page-size">Rows per page</label>
            <select
              id="page-size"
              value={pageSize}
              onChange={(e) => {
                setPageSize(Number(e.target.value));
                setPage(0);
              }}
            >
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n.toLocaleString()}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => setPage(safePage - 1)} disabled={safePage === 0}>
              Previous
            </button>
            <span aria-live="polite">
              Page {safePage + 1} of {pages}
            </span>
            <button type="button" onClick={() => setPage(safePage + 1)} disabled={safePage >= pages - 1}>
              Next
            </button>
          </div>
          <DataGrid columns={form.columns} rows={slice} caption={`${datasetKey}: ${current}`} />
        </div>
      )}
    </section>
  );
}
