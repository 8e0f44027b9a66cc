import type { Report } from '../api/decisions.ts';
import { KpiTermsTable } from '../explanations/KpiTermsTable.tsx';
import { rowText, ViolationItem } from '../explanations/ViolationItem.tsx';
import { WaterfallBlock } from '../explanations/WaterfallBlock.tsx';
import { byKpi } from '../explanations/WhyItChanged.tsx';
import { violationCountSentence } from '../explanations/words.ts';

type Frozen = NonNullable<Report['explanations']>;

/**
 * The explanation a report froze (docs/api/explanations.md, "Reports"): compare's waterfalls as they
 * were, and each scenario's KPI terms, whether it was infeasible and its first violations. Rows are
 * text here, not links: the data may have changed since.
 */
export function FrozenExplanation({ report: r, explanations }: { report: Report; explanations: Frozen }) {
  const tagOf = (id: string) => r.scenarios.find((s) => s.id === id)?.tag ?? id;
  const kpiOf = (name: string) => r.kpis.find((k) => k.name === name);
  const explained = explanations.scenarios.filter((s) => s.kpis.length > 0 || s.violation_count > 0 || s.infeasible);
  if (explanations.waterfalls.length === 0 && explained.length === 0) return null;
  return (
    <section className="report-section" aria-labelledby="report-why-title" data-testid="report-explanations">
      <h2 id="report-why-title">Why the KPIs changed</h2>
      {byKpi(explanations.waterfalls).map(([kpi, waterfalls]) => (
        <div key={kpi} data-testid="why-kpi" data-kpi={kpi}>
          <h3>Why {kpi} changed</h3>
          {waterfalls.map((w) => (
            <WaterfallBlock key={w.scenario_id} waterfall={w} fromTag={tagOf(r.baseline)} toTag={tagOf(w.scenario_id)} betterWhen={kpiOf(kpi)?.better_when} unit={kpiOf(kpi)?.unit} />
          ))}
        </div>
      ))}
      {explained.map((s) => (
        <div key={s.scenario_id} data-testid="report-why-scenario" data-scenario={tagOf(s.scenario_id)}>
          <h3>Why {tagOf(s.scenario_id)} is what it is</h3>
          {s.infeasible && (
            <p className="alert error" data-testid="infeasible">
              <strong>Infeasible:</strong> this plan breaks a rule that must hold, so it cannot be carried out as it is.
            </p>
          )}
          {s.kpis.map((k) => (
            <KpiTermsTable key={k.kpi} kpi={k} unit={kpiOf(k.kpi)?.unit} />
          ))}
          <p>{violationCountSentence(s.violation_count, s.infeasible)}</p>
          {s.violations.length > 0 && (
            <ol className="violations" style={{ listStyle: 'none', padding: 0 }}>
              {s.violations.map((v, i) => (
                <ViolationItem key={i} violation={v} row={rowText} />
              ))}
            </ol>
          )}
          {s.violation_count > s.violations.length && (
            <p className="muted small">The report keeps the first {s.violations.length.toLocaleString()} of {s.violation_count.toLocaleString()}.</p>
          )}
        </div>
      ))}
    </section>
  );
}
