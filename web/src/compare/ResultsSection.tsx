import type { ResultDiff, ResultTableDiff } from '../api/cycles.ts';
import type { Scenario } from '../api/types.ts';
import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { churnWords, shareText } from '../cycles/stale-words.ts';
import { TableSummary } from './TableSummary.tsx';

/**
 * What each compared scenario's result changed against the baseline's, beside its KPI deltas: per keyed
 * result table (the domain names the key, e.g. assignments by sku) the rows added, removed and changed
 * with examples, the share of rows that moved, and how far it is from the published plan when the
 * baseline is not the plan: the churn a warehouse would execute.
 */
export function ResultsSection({ results, baselineId, baselineTag, tagOf, planId, scenarios }: {
  results: readonly ResultDiff[];
  baselineId: string;
  baselineTag: string;
  tagOf: (id: string) => string;
  /** The published plan's scenario, when there is one: the churn against it is told when it is not the baseline. */
  planId: string | undefined;
  scenarios: readonly Scenario[] | undefined;
}) {
  const churnOf = (id: string) => scenarios?.find((s) => s.id === id)?.plan_churn ?? null;
  return (
    <section className="card" aria-labelledby="results-title" data-testid="result-changes">
      <h2 id="results-title" style={{ marginTop: 0 }}>
        Result changes <span className="muted small">(what differs from {baselineTag}’s result)</span>
      </h2>
      <div className="inputs-grid">
        {results.map((entry) => {
          const churn = churnOf(entry.scenario_id);
          const againstPlan = planId !== undefined && churn !== null && entry.scenario_id !== planId && planId !== baselineId;
          return (
            <article key={entry.scenario_id} className="inputs-card" data-testid="scenario-result-changes" data-scenario={tagOf(entry.scenario_id)} aria-label={`Result changes of ${tagOf(entry.scenario_id)}`}>
              <h3 style={{ marginTop: 0 }}>
                <ScenarioLink id={entry.scenario_id} tag={tagOf(entry.scenario_id)} />
              </h3>
              {entry.tables === null && <p className="muted small">No result to compare yet: it (or the baseline) is not complete.</p>}
              {entry.tables?.length === 0 && <p className="muted small">No result table that both name by a key.</p>}
              {entry.tables && entry.tables.length > 0 && (
                <ul className="param-changes" data-testid="result-tables">
                  {entry.tables.map((t) => (
                    <li key={t.table}>
                      <span data-testid="result-share">{movedWords(t)}</span>. <TableSummary diff={t} fromName={`${baselineTag}’s result`} toName="this result" />
                    </li>
                  ))}
                </ul>
              )}
              {againstPlan && churn && (
                <p className="small" data-testid="plan-churn">
                  Against the plan: {churnWords(churn)}.
                </p>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}

/** "141 of 200 rows moved (71 %)": how much of a keyed result table differs from the baseline's. */
export function movedWords(t: ResultTableDiff): string {
  const moved = t.rows_added + t.rows_removed + t.rows_changed;
  const all = moved + t.rows_unchanged;
  if (moved === 0) return `${t.table}: the same rows`;
  return `${t.table}: ${moved.toLocaleString()} of ${all.toLocaleString()} rows differ (${shareText(all === 0 ? 0 : moved / all)})`;
}
