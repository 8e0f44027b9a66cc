import { useQuery } from '@tanstack/react-query';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { toCsv } from 'scenarist/client';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { Scenario } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { saveBlob } from '../csv.ts';
import { formatNumber, formatTime } from '../format.ts';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';
import { overviewCsv, overviewFileName } from './overview-csv.ts';

/** The overview's rows: one per completed scenario, KPI values by name. */
function overviewColumns(kpiNames: readonly string[]): ColumnDef<Scenario>[] {
  return [
    { id: 'tag', header: 'Scenario', accessorFn: (s) => s.tag, cell: (c) => <ScenarioLink id={c.row.original.id} tag={c.getValue<string>()} /> },
    { id: 'algorithm', header: 'Algorithm', accessorFn: (s) => s.algorithm.name },
    { id: 'dataset', header: 'Dataset', accessorFn: (s) => s.input_data_id },
    { id: 'finished', header: 'Finished', accessorFn: (s) => s.finished_at ?? '', cell: (c) => formatTime(c.getValue<string>()), enableGlobalFilter: false },
    ...kpiNames.map<ColumnDef<Scenario>>((name) => ({
      id: `kpi:${name}`,
      header: name,
      accessorFn: (s) => s.kpis[name]?.value ?? null,
      cell: (c) => formatNumber(c.getValue<number | null>()),
      sortUndefined: 'last',
      enableGlobalFilter: false,
      meta: { numeric: true, unit: '' },
    })),
  ];
}

/** Every completed scenario × KPI, sortable and filterable, exported as CSV as shown, with the parameters (overview-csv.ts). */
export function OverviewPage() {
  const api = useApi();
  usePageTitle('Overview');
  const sid = useSid();
  const scenarios = useQuery({ queryKey: keys.scenarios(sid), queryFn: () => api.listScenarios(sid) });
  const completed = useMemo(() => (scenarios.data ?? []).filter((s) => s.status === 'COMPLETE'), [scenarios.data]);
  const kpiNames = useMemo(() => [...new Set(completed.flatMap((s) => Object.keys(s.kpis)))], [completed]);
  const units = useMemo(() => {
    const out: Record<string, string> = {};
    for (const s of completed) for (const k of Object.values(s.kpis)) out[k.name] ??= k.unit;
    return out;
  }, [completed]);
  const columns = useMemo(() => overviewColumns(kpiNames), [kpiNames]);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  const [algorithm, setAlgorithm] = useState('');
  const algorithms = [...new Set(completed.map((s) => s.algorithm.name))];
  const data = useMemo(() => completed.filter((s) => algorithm === '' || s.algorithm.name === algorithm), [completed, algorithm]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    globalFilterFn: 'includesString',
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const rows = table.getRowModel().rows;

  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions() });
  const sessionName = sessions.data?.sessions.find((s) => s.id === sid || s.display_name === sid)?.display_name ?? sid;
  const exportCsv = () => {
    const { header, body } = overviewCsv(
      rows.map((r) => r.original),
      kpiNames,
      units,
    );
    saveBlob(new Blob([toCsv(header, body)], { type: 'text/csv' }), overviewFileName(sessionName, new Date()));
  };

  return (
    <>
      <h1>Overview</h1>
      <section className="card" aria-labelledby="overview-title">
        <div className="row" style={{ marginBottom: '0.5rem' }}>
          <h2 id="overview-title" style={{ margin: 0 }}>
            Completed scenarios <span className="muted small">({rows.length} of {completed.length})</span>
          </h2>
        </div>
        <div className="row" style={{ marginBottom: '0.5rem' }}>
          <label htmlFor="overview-filter" className="small">
            Filter
          </label>
          <input id="overview-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="tag, algorithm, dataset" />
          <label htmlFor="overview-algo" className="small">
            Algorithm
          </label>
          <select id="overview-algo" value={algorithm} onChange={(e) => setAlgorithm(e.target.value)}>
            <option value="">all</option>
            {algorithms.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
            Export CSV
          </button>
        </div>
        <ErrorNote error={scenarios.error} />
        <div className="table-scroll">
          <table className="plain" data-testid="overview-table">
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const numeric = header.column.id.startsWith('kpi:');
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={numeric ? 'num' : undefined}
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                      >
                        <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          {numeric && <span className="muted small"> {units[header.column.id.slice(4)]}</span>}
                          <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cell.column.id.startsWith('kpi:') ? 'num' : undefined}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {completed.length === 0 && <p className="muted">No completed scenarios yet.</p>}
      </section>
    </>
  );
}
