import { useState } from 'react';
import { PlanMark } from '../decisions/PlanBadge.tsx';
import { usePlanScenarioId } from '../decisions/use-plan.ts';
import { formatNumber } from '../format.ts';
import { shown, sortRows, type ResultRow } from './results.ts';

/**
 * One row per scenario (axis values, status, KPIs), sorted by any column header; each tag opens its
 * scenario (the session's published plan badged, as on its card and page), and ticked rows can be compared.
 */
export function ResultsTable({
  sid,
  rows,
  axes,
  kpis,
  labelOf,
}: {
  sid: string;
  rows: readonly ResultRow[];
  axes: readonly string[];
  kpis: readonly string[];
  /** A column's heading: axes by their parameter's label (KPIs and the fixed columns by name). */
  labelOf: (column: string) => string;
}) {
  // Read once for the table, not per row: an experiment may have thousands of scenarios.
  const planId = usePlanScenarioId(sid);
  const [sort, setSort] = useState<{ column: string; ascending: boolean }>({ column: 'tag', ascending: true });
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const sorted = sort.column === 'tag' && sort.ascending ? rows : sortRows(rows, sort.column, sort.ascending);
  const header = (column: string) => {
    const active = sort.column === column;
    return (
      <th key={column} scope="col" title={column} aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
        <button type="button" className="link" onClick={() => setSort({ column, ascending: active ? !sort.ascending : true })}>
          {labelOf(column)}
          {active ? (sort.ascending ? ' ▲' : ' ▼') : ''}
        </button>
      </th>
    );
  };
  const toggle = (id: string, on: boolean) =>
    setPicked((set) => {
      const next = new Set(set);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const ids = [...picked];
  return (
    <>
      <div className="row small">
        <span>{picked.size} picked</span>
        {picked.size >= 2 ? (
          <a href={`#/s/${encodeURIComponent(sid)}/compare?ids=${encodeURIComponent(ids.join(','))}`} data-testid="compare-picked">
            Compare the picked scenarios
          </a>
        ) : (
          <span className="muted">pick two or more rows to compare them</span>
        )}
      </div>
      <div className="table-scroll">
        <table className="results-table" data-testid="results-table">
          <caption className="sr-only">One row per scenario of the experiment; headers sort</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Pick</span>
              </th>
              {['tag', 'status', ...axes, ...kpis].map(header)}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <tr key={r.id} data-testid="result-row">
                <td>
                  <input type="checkbox" aria-label={`Pick ${r.tag}`} checked={picked.has(r.id)} onChange={(e) => toggle(r.id, e.target.checked)} />
                </td>
                <td>
                  <a href={`#/s/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(r.id)}`}>{r.tag}</a>
                  {r.id === planId && (
                    <>
                      {' '}
                      <PlanMark />
                    </>
                  )}
                </td>
                <td>{r.status}</td>
                {axes.map((a) => (
                  <td key={a}>{shown(r.axes[a])}</td>
                ))}
                {kpis.map((k) => (
                  <td key={k} className="num">
                    {r.kpis[k] === null || r.kpis[k] === undefined ? '' : formatNumber(r.kpis[k])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
