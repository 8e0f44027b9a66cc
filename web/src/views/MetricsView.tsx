import type { Direction, MetricsSpec } from '../api/views.ts';
import { formatValue } from './number-format.ts';

const DIRECTION: Record<Direction, string> = {
  HIGHER: 'higher is better',
  LOWER: 'lower is better',
  AT_LEAST: 'at least the threshold',
  AT_MOST: 'at most the threshold',
};

/** A metrics view: labelled numbers with unit and which way is better. */
export function MetricsView({ spec }: { spec: MetricsSpec }) {
  if (spec.items.length === 0) return <p className="muted">No metrics.</p>;
  return (
    <dl className="metrics" data-testid="metrics-view">
      {spec.items.map((m, n) => (
        <div key={`${m.label}-${n}`} className="kpi-card">
          <dt className="small muted">{m.label}</dt>
          <dd className="value">
            {formatValue(m.value, m.format)} {m.unit && <span className="small">{m.unit}</span>}
          </dd>
          {m.better_when && <dd className="small muted">{DIRECTION[m.better_when]}</dd>}
        </div>
      ))}
    </dl>
  );
}
