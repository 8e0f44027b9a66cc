import { useState } from 'react';
import { formatNumber } from '../format.ts';
import type { ResultRow } from './results.ts';

const W = 420;
const H = 300;
const PAD = { left: 16, right: 12, top: 24, bottom: 36 };

/**
 * Two chosen KPIs of every complete scenario, the non-dominated ones (the summary's front for that
 * pair) drawn filled and joined. Each point links to its scenario's page.
 */
export function FrontScatter({ sid, rows, kpis, fronts }: { sid: string; rows: readonly ResultRow[]; kpis: readonly string[]; fronts: readonly { kpis: readonly string[]; ids: readonly string[] }[] }) {
  const [xKpi, setX] = useState(kpis[0] ?? '');
  const [yKpi, setY] = useState(kpis[1] ?? kpis[0] ?? '');
  const points = rows.flatMap((r) => {
    const a = r.kpis[xKpi];
    const b = r.kpis[yKpi];
    return typeof a === 'number' && typeof b === 'number' ? [{ row: r, a, b }] : [];
  });
  const front = new Set(fronts.find((f) => (f.kpis[0] === xKpi && f.kpis[1] === yKpi) || (f.kpis[0] === yKpi && f.kpis[1] === xKpi))?.ids ?? []);
  const range = (vs: number[]) => {
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    return { lo, span: hi - lo || Math.abs(hi) || 1, hi };
  };
  const rx = range(points.map((p) => p.a));
  const ry = range(points.map((p) => p.b));
  const x = (v: number) => PAD.left + ((v - rx.lo) / rx.span) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - ry.lo) / ry.span) * (H - PAD.top - PAD.bottom);
  const frontLine = points
    .filter((p) => front.has(p.row.id))
    .sort((p, q) => p.a - q.a)
    .map((p) => `${x(p.a)},${y(p.b)}`)
    .join(' ');

  return (
    <div className="scatter" data-testid="front-scatter">
      <div className="row small">
        <label htmlFor="scatter-x">X</label>
        <select id="scatter-x" value={xKpi} onChange={(e) => setX(e.target.value)}>
          {kpis.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
        <label htmlFor="scatter-y">Y</label>
        <select id="scatter-y" value={yKpi} onChange={(e) => setY(e.target.value)}>
          {kpis.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
        <span className="muted">filled: not dominated ({front.size})</span>
      </div>
      {points.length === 0 ? (
        <p className="muted small">No complete scenario yet.</p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-label={`${yKpi} against ${xKpi}, one point per complete scenario`}>
          <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} stroke="currentColor" opacity={0.4} />
          <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} stroke="currentColor" opacity={0.4} />
          <text x={W - PAD.right} y={H - 6} textAnchor="end" fontSize={11} fill="currentColor">
            {xKpi} ({formatNumber(rx.lo)} to {formatNumber(rx.hi)})
          </text>
          <text x={4} y={PAD.top + 4} fontSize={11} fill="currentColor">
            {yKpi}
          </text>
          {frontLine && <polyline points={frontLine} fill="none" stroke="currentColor" strokeDasharray="4 3" />}
          {points.map((p) => {
            const onFront = front.has(p.row.id);
            return (
              <a
                key={p.row.id}
                className="chart-point"
                href={`#/s/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(p.row.id)}`}
                aria-label={`${p.row.tag}: ${xKpi} ${formatNumber(p.a)}, ${yKpi} ${formatNumber(p.b)}${onFront ? ', not dominated' : ''}`}
                data-testid="scatter-point"
              >
                <circle cx={x(p.a)} cy={y(p.b)} r={onFront ? 6 : 5} fill={onFront ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.5} />
              </a>
            );
          })}
        </svg>
      )}
    </div>
  );
}
