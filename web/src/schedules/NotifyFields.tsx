import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { KpiThresholdDraft, NotifyDraft } from './schedule-draft.ts';

const NO_THRESHOLD: KpiThresholdDraft = { absolute: '', relative: '' };

/**
 * When a run's result should raise an alert: a KPI that moved from the published plan's value by more
 * than an amount or a percentage, or more result rows changed than allowed. Empty fields set nothing.
 */
export function NotifyFields({ sid, draft, onDraft }: { sid: string; draft: NotifyDraft; onDraft: (d: NotifyDraft) => void }) {
  const api = useApi();
  const kpis = useQuery({ queryKey: keys.kpis(sid), queryFn: () => api.kpis(sid) });
  const setKpi = (name: string, change: Partial<KpiThresholdDraft>) =>
    onDraft({ ...draft, kpis: { ...draft.kpis, [name]: { ...(draft.kpis[name] ?? NO_THRESHOLD), ...change } } });
  return (
    <details>
      <summary>Alerts (optional): when the new result moves away from the published plan</summary>
      <p className="muted small">A run that crosses a threshold raises a schedule alert (events and webhooks) and shows it in the run history.</p>
      {(kpis.data ?? []).map((k) => {
        const t = draft.kpis[k.name] ?? NO_THRESHOLD;
        return (
          <div key={k.name} className="row" style={{ marginBottom: '0.35rem' }}>
            <span style={{ minWidth: '10rem' }}>
              <strong>{k.name}</strong> {k.unit && <span className="muted small">({k.unit})</span>}
            </span>
            <label className="check">
              changes by more than
              <input type="number" min={0} step="any" aria-label={`${k.name}: alert above this change`} value={t.absolute} onChange={(e) => setKpi(k.name, { absolute: e.target.value })} style={{ width: '7rem' }} />
            </label>
            <label className="check">
              or more than
              <input type="number" min={0} step="any" aria-label={`${k.name}: alert above this change in percent`} value={t.relative} onChange={(e) => setKpi(k.name, { relative: e.target.value })} style={{ width: '5rem' }} />
              %
            </label>
          </div>
        );
      })}
      <div className="row">
        <span style={{ minWidth: '10rem' }}>
          <strong>Changed rows</strong>
        </span>
        <label className="check">
          more than
          <input type="number" min={0} step={1} aria-label="alert above this many changed rows" value={draft.churnRows} onChange={(e) => onDraft({ ...draft, churnRows: e.target.value })} style={{ width: '7rem' }} />
          rows
        </label>
        <label className="check">
          or more than
          <input type="number" min={0} max={100} step="any" aria-label="alert above this share of changed rows in percent" value={draft.churnShare} onChange={(e) => onDraft({ ...draft, churnShare: e.target.value })} style={{ width: '5rem' }} />
          % of rows
        </label>
      </div>
    </details>
  );
}
