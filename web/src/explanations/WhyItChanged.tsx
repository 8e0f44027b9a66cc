import type { Waterfall } from '../api/explanations.ts';
import type { CompareResult } from '../api/types.ts';
import { RulesChanged } from './RulesChanged.tsx';
import { WaterfallBlock } from './WaterfallBlock.tsx';

/** Waterfalls grouped by KPI, in the order the server gives them (the baseline's KPI order). */
export function byKpi(waterfalls: readonly Waterfall[]): [string, Waterfall[]][] {
  const groups = new Map<string, Waterfall[]>();
  for (const w of waterfalls) groups.set(w.kpi, [...(groups.get(w.kpi) ?? []), w]);
  return [...groups];
}

/**
 * Compare's answer to "why did this KPI change?": per KPI the algorithm splits into parts (zones,
 * categories…), a waterfall from the baseline's value to each scenario's, part by part; then the rules
 * a plan breaks that the other does not.
 */
export function WhyItChanged({ result }: { result: CompareResult }) {
  const tagOf = (id: string) => result.scenarios.find((s) => s.id === id)?.tag ?? id;
  const kpiOf = (name: string) => result.kpis.find((k) => k.name === name);
  const base = tagOf(result.baseline);
  const groups = byKpi(result.explanations);
  return (
    <>
      <section aria-labelledby="why-changed-title" data-testid="why-changed">
        <h2 id="why-changed-title">Why the KPIs changed</h2>
        {groups.length === 0 ? (
          <p className="muted">These plans do not split their KPIs into parts (by zone, by category…), so Compare cannot show what moved them.</p>
        ) : (
          <p className="muted small">
            Each KPI is split into the parts that add up to it. The bars walk from the baseline {base}&apos;s value to the other plan&apos;s, one part at a time:
            the longest bars are the reasons.
          </p>
        )}
        {groups.map(([kpi, waterfalls]) => {
          const info = kpiOf(kpi);
          return (
            <div key={kpi} className="card" data-testid="why-kpi" data-kpi={kpi}>
              <h3 style={{ marginTop: 0 }}>Why {kpi} changed</h3>
              {waterfalls.map((w) => (
                <WaterfallBlock key={w.scenario_id} waterfall={w} fromTag={base} toTag={tagOf(w.scenario_id)} betterWhen={info?.better_when} unit={info?.unit} />
              ))}
            </div>
          );
        })}
      </section>
      <RulesChanged result={result} />
    </>
  );
}
