import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { CompareResult } from '../api/types.ts';
import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { formatNumber } from '../format.ts';
import { higherIsBetter } from '../kpis/direction.ts';
import { useSid } from '../session.ts';
import { ViewList } from '../views/ViewList.tsx';
import { normalisedScores } from './normalise.ts';
import { KpiScatter } from '../charts/KpiScatter.tsx';
import { scenarioHref } from '../charts/scenario-href.ts';
import { kpiAxes, paretoPoints } from './pareto.ts';
import { ScrollTable } from '../components/ScrollTable.tsx';

/**
 * What Compare shows under the KPI cards: the domain's comparison views of the compared scenarios,
 * every KPI on one normalised scale, and a trade-off scatter of two KPIs over the session.
 */
export function CompareExtras({ result }: { result: CompareResult }) {
  const sid = useSid();
  const ids = useMemo(() => result.scenarios.map((s) => s.id), [result]);
  return (
    <>
      <section aria-labelledby="compare-views-title">
        <h2 id="compare-views-title">Comparison views</h2>
        <ViewList target={{ of: 'compare', sid, ids, baseline: result.baseline }} empty="The domain declares no comparison views for these results." />
      </section>
      <KpisTogether result={result} />
      <TradeOff compared={ids} />
    </>
  );
}

/** Every KPI of the compared scenarios in one table: the value, and a bar of 0 (worst) to 100 (best). */
function KpisTogether({ result }: { result: CompareResult }) {
  const scores = normalisedScores(result);
  if (result.kpis.length === 0) return null;
  return (
    <section className="card" aria-labelledby="together-title">
      <h2 id="together-title" style={{ marginTop: 0 }}>
        All KPIs together <span className="muted small">(100 = best of these, 0 = worst)</span>
      </h2>
      <ScrollTable
        className="plain kpis-together"
        label="All KPIs together"
        testId="kpis-together"
        headings={[
          'Scenario',
          ...result.kpis.map((k) => (
            <>
              {k.name} <span className="muted small">({higherIsBetter(k.better_when) ? 'higher' : 'lower'} is better)</span>
            </>
          )),
        ]}
      >
        {result.scenarios.map((s) => (
          <tr key={s.id}>
            <th scope="row">
              <ScenarioLink id={s.id} tag={s.tag} />
            </th>
            {result.kpis.map((k) => {
              const score = scores.get(k.name)?.get(s.id) ?? null;
              const value = k.values.find((v) => v.scenario_id === s.id)?.value ?? null;
              return (
                <td key={k.name} data-score={score ?? ''}>
                  <div className="score">
                    <span className="score-bar" aria-hidden="true">
                      <span style={{ width: `${Math.round((score ?? 0) * 100)}%` }} />
                    </span>
                    <span className="score-text">{score === null ? '—' : Math.round(score * 100)}</span>
                  </div>
                  <span className="small muted">
                    {formatNumber(value)} {k.unit}
                  </span>
                </td>
              );
            })}
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}

/** Two KPIs of every complete scenario of the session as a scatter, the non-dominated ones marked, the compared ones ringed. */
function TradeOff({ compared }: { compared: readonly string[] }) {
  const api = useApi();
  const sid = useSid();
  const xId = useId();
  const yId = useId();
  const scenarios = useQuery({ queryKey: keys.scenarios(sid), queryFn: () => api.listScenarios(sid) });
  const axes = useMemo(() => kpiAxes(scenarios.data ?? []), [scenarios.data]);
  const [xName, setX] = useState<string | undefined>(undefined);
  const [yName, setY] = useState<string | undefined>(undefined);
  const x = axes.find((a) => a.name === xName) ?? axes[0];
  const y = axes.find((a) => a.name === yName) ?? axes.find((a) => a !== x) ?? axes[0];
  const points = useMemo(() => (x && y ? paretoPoints(scenarios.data ?? [], x, y) : []), [scenarios.data, x, y]);
  const scatter = useMemo(() => points.map((p) => ({ ...p, compared: compared.includes(p.id), href: scenarioHref(sid, p.id) })), [points, compared, sid]);
  if (axes.length < 2) return null;
  const front = points.filter((p) => p.front);
  return (
    <section className="card" aria-labelledby="tradeoff-title">
      <h2 id="tradeoff-title" style={{ marginTop: 0 }}>
        Trade-off of two KPIs <span className="muted small">(every complete scenario of the session)</span>
      </h2>
      <div className="row" style={{ marginBottom: '0.5rem' }}>
        <label htmlFor={xId}>Across</label>
        <select id={xId} value={x!.name} onChange={(e) => setX(e.target.value)}>
          {axes.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
        <label htmlFor={yId}>Up</label>
        <select id={yId} value={y!.name} onChange={(e) => setY(e.target.value)}>
          {axes.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      {x && y && <KpiScatter points={scatter} x={x} y={y} />}
      <p className="small" data-testid="pareto-front">
        Non-dominated ({front.length} of {points.length}):{' '}
        {front.map((p, n) => (
          <span key={p.id}>
            {n > 0 && ', '}
            <ScenarioLink id={p.id} tag={p.tag} />
          </span>
        ))}
      </p>
    </section>
  );
}
