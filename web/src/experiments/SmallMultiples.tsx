import { formatNumber } from '../format.ts';
import { shown } from './results.ts';

export interface AxisSummary {
  path: string;
  values: { value: unknown; kpis: Record<string, { mean: number; min: number; max: number; count: number }> }[];
}

const W = 260;
const H = 150;
const PAD = { left: 66, right: 12, top: 10, bottom: 28 };

/**
 * One small chart per KPI and axis: the KPI's mean over the axis values (a line) inside its min-max
 * band, from the experiment's summary. Plain SVG: a few dozen shapes need no chart library.
 */
export function SmallMultiples({ axes, kpis }: { axes: readonly AxisSummary[]; kpis: readonly string[] }) {
  return (
    <div className="multiples" data-testid="small-multiples">
      {kpis.flatMap((kpi) => axes.map((axis) => <Multiple key={`${kpi}|${axis.path}`} kpi={kpi} axis={axis} />))}
    </div>
  );
}

function Multiple({ kpi, axis }: { kpi: string; axis: AxisSummary }) {
  const points = axis.values.map((v) => ({ label: shown(v.value), stat: v.kpis[kpi] })).filter((p) => p.stat !== undefined);
  const title = `${kpi} by ${axis.path}`;
  if (points.length === 0) return null;
  const lo = Math.min(...points.map((p) => p.stat?.min ?? 0));
  const hi = Math.max(...points.map((p) => p.stat?.max ?? 0));
  const span = hi - lo || Math.abs(hi) || 1;
  const x = (i: number) => PAD.left + (points.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v: number) => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom);
  const band = [...points.map((p, i) => `${x(i)},${y(p.stat?.max ?? 0)}`), ...points.map((p, i) => `${x(i)},${y(p.stat?.min ?? 0)}`).reverse()].join(' ');
  const line = points.map((p, i) => `${x(i)},${y(p.stat?.mean ?? 0)}`).join(' ');
  const summary = points.map((p) => `${p.label}: mean ${formatNumber(p.stat?.mean)} (${formatNumber(p.stat?.min)} to ${formatNumber(p.stat?.max)})`).join('; ');
  return (
    <figure className="kpi-card" style={{ margin: 0 }}>
      <figcaption className="small">
        <strong>{kpi}</strong> by {axis.path}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${summary}`}>
        <polygon points={band} fill="currentColor" opacity={0.15} />
        <polyline points={line} fill="none" stroke="currentColor" strokeWidth={2} />
        {points.map((p, i) => (
          <circle key={p.label} cx={x(i)} cy={y(p.stat?.mean ?? 0)} r={3} fill="currentColor" />
        ))}
        <text x={PAD.left - 4} y={PAD.top + 8} textAnchor="end" fontSize={10} fill="currentColor">
          {formatNumber(hi)}
        </text>
        <text x={PAD.left - 4} y={H - PAD.bottom} textAnchor="end" fontSize={10} fill="currentColor">
          {formatNumber(lo)}
        </text>
        {points.map((p, i) => (
          <text key={p.label} x={x(i)} y={H - 10} textAnchor="middle" fontSize={10} fill="currentColor">
            {p.label.length > 8 ? `${p.label.slice(0, 7)}…` : p.label}
          </text>
        ))}
      </svg>
    </figure>
  );
}
