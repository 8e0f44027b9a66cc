import type { Plan } from '../api/decisions.ts';
import { formatNumber } from '../format.ts';

/** A plan's KPIs as they were when it was published: one tile each. */
export function KpiTiles({ kpis }: { kpis: Plan['kpis'] }) {
  const entries = Object.values(kpis);
  if (entries.length === 0) return <p className="muted small">This plan reports no KPIs.</p>;
  return (
    <div className="grid kpi-grid">
      {entries.map((k) => (
        <div key={k.name} className="kpi-card" data-testid="plan-kpi" data-kpi={k.name}>
          <div className="small muted">{k.name}</div>
          <div className="value">
            {formatNumber(k.value)} <span className="small">{k.unit}</span>
          </div>
        </div>
      ))}
    </div>
  );
}
