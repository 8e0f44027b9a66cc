import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { CompareResult, Scenario } from '../api/types.ts';
import { KpiBars } from '../charts/KpiBars.tsx';
import { CompareExtras } from '../compare/CompareExtras.tsx';
import { inputsOf } from '../compare/inputs.ts';
import { InputsSection } from '../compare/InputsSection.tsx';
import { ResultsSection } from '../compare/ResultsSection.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { isCancelled, StatusBadge } from '../components/StatusBadge.tsx';
import { deltaArrow, formatDelta, formatNumber, formatParam, formatRelative } from '../format.ts';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';
import { useParameterLabels } from '../params/parameter-labels.ts';
import { commonParent } from '../scenarios/branch-tree.ts';
import { PlanBadge } from '../decisions/PlanBadge.tsx';
import { SaveReportControl } from '../decisions/SaveReportControl.tsx';
import { usePlanScenarioId } from '../decisions/use-plan.ts';
import { WhyItChanged } from '../explanations/WhyItChanged.tsx';

const MIN_COMPARED = 2;
export const MAX_COMPARED = 6;

export interface CompareSearch {
  ids?: string;
  baseline?: string;
}

/** Compare: pick 2–6 scenarios; KPI cards with deltas to a baseline, a bar chart per KPI, parameters. */
export function ComparePage() {
  const api = useApi();
  usePageTitle('Compare');
  const sid = useSid();
  const navigate = useNavigate();
  const search: CompareSearch = useSearch({ strict: false });
  const ids = useMemo(() => (search.ids ? search.ids.split(',').filter(Boolean) : []), [search.ids]);
  // Without a chosen baseline: the session's published plan when it is compared (the one to beat), else the
  // parent when the others are its branches, else the first picked.
  const planId = usePlanScenarioId(sid);
  const scenarios = useQuery({ queryKey: keys.scenarios(sid), queryFn: () => api.listScenarios(sid) });
  const baseline =
    search.baseline && ids.includes(search.baseline) ? search.baseline : planId && ids.includes(planId) ? planId : (commonParent(ids, scenarios.data) ?? ids[0]);
  const ready = ids.length >= MIN_COMPARED && ids.length <= MAX_COMPARED && baseline !== undefined && scenarios.data !== undefined;
  const comparison = useQuery({
    queryKey: [...keys.compare(sid), ids.join(','), baseline],
    queryFn: () => api.compare(sid, ids, baseline!),
    enabled: ready,
  });

  // The URL keeps a baseline only once one is chosen: until then the plan (or the first) stays the default as scenarios are ticked.
  const setSelection = (next: string[], nextBaseline = search.baseline) => {
    void navigate({
      to: '/s/$sid/compare',
      params: { sid },
      search: { ids: next.length ? next.join(',') : undefined, baseline: nextBaseline && next.includes(nextBaseline) ? nextBaseline : undefined },
      replace: true,
    });
  };
  const toggle = (id: string, on: boolean) => setSelection(on ? [...ids, id] : ids.filter((x) => x !== id));

  return (
    <>
      <h1>Compare</h1>
      <section className="card" aria-labelledby="pick-title">
        <h2 id="pick-title" style={{ marginTop: 0 }}>
          Scenarios to compare <span className="muted small">(choose {MIN_COMPARED} to {MAX_COMPARED})</span>
        </h2>
        <ErrorNote error={scenarios.error} />
        <fieldset>
          <legend>Scenarios</legend>
          {scenarios.data?.map((s) => {
            const checked = ids.includes(s.id);
            // A cancelled run has no results to compare.
            const cancelled = isCancelled(s);
            return (
              <label key={s.id} className="check compare-pick">
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={(!checked && ids.length >= MAX_COMPARED) || (cancelled && !checked)}
                  onChange={(e) => toggle(s.id, e.target.checked)}
                />
                <span>{s.tag}</span> <PlanBadge sid={sid} scenarioId={s.id} /> <StatusBadge status={s.status} error={s.error} /> <span className="muted small">{s.algorithm.name}</span>
              </label>
            );
          })}
        </fieldset>
        {ids.length > 0 && (
          <div className="row">
            <label htmlFor="baseline">Baseline</label>
            <select id="baseline" value={baseline} onChange={(e) => setSelection(ids, e.target.value)}>
              {ids.map((id) => (
                <option key={id} value={id}>
                  {scenarios.data?.find((s) => s.id === id)?.tag ?? id}
                </option>
              ))}
            </select>
          </div>
        )}
        {ids.length === 1 && <p className="muted">Choose at least one more scenario.</p>}
      </section>
      <ErrorNote error={comparison.error} />
      {ready && comparison.data && (
        <div className="row compare-save">
          <span className="spacer" />
          <SaveReportControl sid={sid} ids={ids} baseline={comparison.data.baseline} />
        </div>
      )}
      {ready && comparison.data && <ComparisonView result={comparison.data} planId={planId} scenarios={scenarios.data} />}
    </>
  );
}

function ComparisonView({ result, planId, scenarios }: { result: CompareResult; planId: string | undefined; scenarios: readonly Scenario[] | undefined }) {
  const sid = useSid();
  const labelOf = useParameterLabels(
    sid,
    result.scenarios.map((s) => s.algorithm),
    result.scenarios.map((s) => s.dataset_key),
  );
  const tagOf = (id: string) => result.scenarios.find((s) => s.id === id)?.tag ?? id;
  const algorithmsDiffer = new Set(result.scenarios.map((s) => s.algorithm)).size > 1;
  // "Only differences": the parameter rows that differ and the KPIs whose values are not all the same.
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const kpis = onlyDifferences ? result.kpis.filter(kpiDiffers) : result.kpis;
  const parameters = onlyDifferences ? result.parameters.filter((p) => p.differs) : result.parameters;
  const inputs = inputsOf(result);
  const hasInputs = 'inputs' in result;
  return (
    <>
      <label className="check">
        <input type="checkbox" role="switch" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} data-testid="only-differences" />
        Only differences (parameters and KPIs)
      </label>
      {hasInputs && <InputsSection inputs={inputs} baselineTag={tagOf(result.baseline)} tagOf={tagOf} labelOf={labelOf} />}
      {/* Beside the KPI deltas: how far each result moved from the baseline's (an older server sends no `results`). */}
      {'results' in result && <ResultsSection results={result.results} baselineId={result.baseline} baselineTag={tagOf(result.baseline)} tagOf={tagOf} planId={planId} scenarios={scenarios} />}
      <section aria-labelledby="kpi-title">
        <h2 id="kpi-title">KPIs <span className="muted small">(baseline: {tagOf(result.baseline)})</span></h2>
        {result.kpis.length === 0 && <p className="muted">These scenarios report no KPIs.</p>}
        {result.kpis.length > 0 && kpis.length === 0 && <p className="muted">Every KPI has the same value in every scenario.</p>}
        {kpis.map((kpi) => (
          <div key={kpi.name} className="card" data-testid="kpi" data-kpi={kpi.name}>
            <h3 style={{ marginTop: 0 }}>
              {kpi.name} <span className="muted small">({kpi.unit}, {kpi.better_when.toLowerCase().replace('_', ' ')} is better)</span>
            </h3>
            <div className="grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))' }}>
              {kpi.values.map((v) => {
                const isBase = v.scenario_id === result.baseline;
                return (
                  <div key={v.scenario_id} className="kpi-card" data-testid="kpi-value" data-scenario={tagOf(v.scenario_id)}>
                    <div className="small muted">
                      {tagOf(v.scenario_id)}
                      {isBase ? ' (baseline)' : ''}
                      {kpi.best === v.scenario_id ? ' ★ best' : ''}
                    </div>
                    <div className="value">
                      {formatNumber(v.value)} <span className="small">{kpi.unit}</span>
                    </div>
                    {!isBase && (
                      <div className="delta" data-comparison={v.comparison ?? 'none'} data-testid="delta" data-delta={v.delta ?? ''}>
                        {/* The arrow tells up or down (the value's change); colour and word tell better or worse. */}
                        <span aria-hidden="true">{deltaArrow(v.delta)} </span>
                        {formatDelta(v.delta)} {formatRelative(v.relative_delta)} {v.comparison && v.comparison !== 'equal' && <strong>{v.comparison}</strong>}
                      </div>
                    )}
                  </div>
                );
              })}
            </div>
            <KpiBars
              title={kpi.name}
              unit={kpi.unit}
              data={kpi.values.map((v) => ({
                label: tagOf(v.scenario_id),
                value: v.value,
                comparison: v.comparison,
                baseline: v.scenario_id === result.baseline,
              }))}
            />
          </div>
        ))}
      </section>
      {/* Why each KPI moved, part by part, and the rules broken or mended (an older server sends no `explanations`). */}
      {'explanations' in result && <WhyItChanged result={result} />}
      <CompareExtras result={result} />
      <section className="card" aria-labelledby="param-title">
        <h2 id="param-title" style={{ marginTop: 0 }}>
          Parameters <span className="muted small">{onlyDifferences ? '(only those that differ)' : '(differences highlighted)'}</span>
        </h2>
        {onlyDifferences && parameters.length === 0 && !algorithmsDiffer && <p className="muted">Every parameter is the same in every scenario.</p>}
        <div className="table-scroll">
          <table className="plain">
            <thead>
              <tr>
                <th scope="col">Parameter</th>
                {result.scenarios.map((s) => (
                  <th key={s.id} scope="col">
                    <ScenarioLink id={s.id} tag={s.tag} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(!onlyDifferences || algorithmsDiffer) && (
                <tr className={algorithmsDiffer ? 'differs' : undefined} data-differs={algorithmsDiffer}>
                  <th scope="row">Algorithm</th>
                  {result.scenarios.map((s) => (
                    <td key={s.id}>{s.algorithm}</td>
                  ))}
                </tr>
              )}
              {parameters.map((p) => (
                <tr key={p.name} className={p.differs ? 'differs' : undefined} data-differs={p.differs}>
                  <th scope="row" title={p.name}>
                    {labelOf(p.name)}
                    {p.differs && <span className="sr-only"> (differs)</span>}
                  </th>
                  {result.scenarios.map((s) => (
                    <td key={s.id}>{formatParam(p.values.find((v) => v.scenario_id === s.id)?.value)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/** A KPI whose compared values are not all the same (a missing value differs from a present one). */
function kpiDiffers(kpi: CompareResult['kpis'][number]): boolean {
  return new Set(kpi.values.map((v) => v.value)).size > 1;
}
