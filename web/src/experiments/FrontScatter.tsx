import { useId, useMemo, useState } from 'react';
import { KpiScatter } from '../charts/KpiScatter.tsx';
import { scenarioHref } from '../charts/scenario-href.ts';
import type { ResultRow } from './results.ts';

/**
 * Two chosen KPIs of every complete scenario of the experiment, the non-dominated ones (the summary's
 * front for that pair) marked and joined: the dashboard's one scatter (`charts/scatter.ts`), as on
 * Compare. Each point opens its scenario's page (so does each tag of the table below).
 */
export function FrontScatter({ sid, rows, kpis, fronts }: { sid: string; rows: readonly ResultRow[]; kpis: readonly string[]; fronts: readonly { kpis: readonly string[]; ids: readonly string[] }[] }) {
  const xId = useId();
  const yId = useId();
  const [xKpi, setX] = useState(kpis[0] ?? '');
  const [yKpi, setY] = useState(kpis[1] ?? kpis[0] ?? '');
  const front = useMemo(
    () => new Set(fronts.find((f) => (f.kpis[0] === xKpi && f.kpis[1] === yKpi) || (f.kpis[0] === yKpi && f.kpis[1] === xKpi))?.ids ?? []),
    [fronts, xKpi, yKpi],
  );
  const points = useMemo(
    () =>
      rows.flatMap((r) => {
        const a = r.kpis[xKpi];
        const b = r.kpis[yKpi];
        return typeof a === 'number' && typeof b === 'number' ? [{ id: r.id, tag: r.tag, x: a, y: b, front: front.has(r.id), compared: false, href: scenarioHref(sid, r.id) }] : [];
      }),
    [rows, xKpi, yKpi, front, sid],
  );
  // The experiment's results carry KPI names only; units are on the scenarios' own pages.
  const x = useMemo(() => ({ name: xKpi, unit: '' }), [xKpi]);
  const y = useMemo(() => ({ name: yKpi, unit: '' }), [yKpi]);

  return (
    <div className="scatter" data-testid="front-scatter" data-points={points.length}>
      <div className="row small" style={{ marginBottom: '0.5rem' }}>
        <label htmlFor={xId}>Across</label>
        <select id={xId} value={xKpi} onChange={(e) => setX(e.target.value)}>
          {kpis.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
        <label htmlFor={yId}>Up</label>
        <select id={yId} value={yKpi} onChange={(e) => setY(e.target.value)}>
          {kpis.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
        <span className="muted">not dominated: {front.size}</span>
      </div>
      {points.length === 0 ? <p className="muted small">No complete scenario yet.</p> : <KpiScatter points={points} x={x} y={y} />}
    </div>
  );
}
