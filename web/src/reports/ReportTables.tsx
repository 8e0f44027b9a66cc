import type { Report } from '../api/decisions.ts';
import { deltaArrow, formatDelta, formatNumber, formatParam, formatRelative } from '../format.ts';
import { humanise } from '../params/parameter-labels.ts';

/** The KPIs, parameters and inputs a report froze, as tables: one column per scenario, in the report's order. */

type Scenarios = Report['scenarios'];

/** The prefix the comparison gives a data parameter (`data_params.<name>`): shown as "<Name> (data)". */
const DATA_PARAM = 'data_params.';

/**
 * A row's label: the declared label the report froze beside the name, else (a report saved before labels
 * were frozen) the name humanised; a data parameter marked as such.
 */
function rowLabel({ name, label }: { name: string; label?: string }): string {
  const isData = name.startsWith(DATA_PARAM);
  const shown = label ?? humanise(isData ? name.slice(DATA_PARAM.length) : name);
  return isData ? `${shown} (data)` : shown;
}

function ScenarioHeadings({ scenarios, baseline, first }: { scenarios: Scenarios; baseline: string; first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        {scenarios.map((s) => (
          <th key={s.id} scope="col">
            {s.tag}
            {s.id === baseline && <span className="muted small"> (baseline)</span>}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function ReportKpis({ report }: { report: Report }) {
  if (report.kpis.length === 0) return <p className="muted">These scenarios reported no KPIs.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Table of the KPIs and deltas">
      <table className="plain report-table" data-testid="report-kpis">
        <ScenarioHeadings scenarios={report.scenarios} baseline={report.baseline} first="KPI" />
        <tbody>
          {report.kpis.map((kpi) => (
            <tr key={kpi.name} data-kpi={kpi.name}>
              <th scope="row">
                {kpi.name} <span className="muted small">({kpi.unit}, {kpi.better_when.toLowerCase().replace('_', ' ')} is better)</span>
              </th>
              {report.scenarios.map((s) => {
                const v = kpi.values.find((x) => x.scenario_id === s.id);
                return (
                  <td key={s.id} className="num">
                    <strong>{formatNumber(v?.value)}</strong>
                    {kpi.best === s.id && <span className="best"> ★ best</span>}
                    {v && s.id !== report.baseline && (
                      <div className="delta small" data-comparison={v.comparison ?? 'none'}>
                        <span aria-hidden="true">{deltaArrow(v.delta)} </span>
                        {formatDelta(v.delta)} {formatRelative(v.relative_delta)} {v.comparison && v.comparison !== 'equal' && <strong>{v.comparison}</strong>}
                      </div>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Parameters or inputs side by side; a row that differs between the scenarios is marked. */
export function SideBySide({
  report,
  rows,
  label,
  first,
  extra,
}: {
  report: Report;
  rows: readonly { name: string; label?: string; values: readonly { scenario_id: string; value?: unknown }[]; differs: boolean }[];
  label: string;
  first: string;
  extra?: { name: string; value: (s: Scenarios[number]) => string };
}) {
  const extraDiffers = extra ? new Set(report.scenarios.map(extra.value)).size > 1 : false;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={`Table of the ${label.toLowerCase()}`}>
      <table className="plain report-table">
        <ScenarioHeadings scenarios={report.scenarios} baseline={report.baseline} first={first} />
        <tbody>
          {extra && (
            <tr className={extraDiffers ? 'differs' : undefined} data-differs={extraDiffers}>
              <th scope="row">{extra.name}</th>
              {report.scenarios.map((s) => (
                <td key={s.id}>{extra.value(s)}</td>
              ))}
            </tr>
          )}
          {rows.map((p) => (
            <tr key={p.name} className={p.differs ? 'differs' : undefined} data-differs={p.differs}>
              <th scope="row" title={p.name}>
                {rowLabel(p)}
                {p.differs && <span className="sr-only"> (differs)</span>}
              </th>
              {report.scenarios.map((s) => (
                <td key={s.id}>{formatParam(p.values.find((v) => v.scenario_id === s.id)?.value)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
