import type { GateKpi } from '../api/gates.ts';
import { DifferenceStrip, IntervalBar } from './charts.tsx';

const num = (v: number | null) => (v === null ? '-' : Number.isInteger(v) ? String(v) : v.toPrecision(4));

/** A verdict line, with its unit when it was frozen in a report. */
type Line = GateKpi & { readonly unit?: string };

/**
 * The verdict table of a gate, one line per KPI: its verdict, the mean and median paired difference,
 * the (1 − alpha) interval drawn against zero, the p-value and the pairs counted. The Gates page and a
 * gate's report show the same table.
 */
export function VerdictTable({ lines, alpha }: { lines: readonly Line[]; alpha: number }) {
  return (
    <table data-testid="gate-table" className="report-table">
      <thead>
        <tr>
          <th>KPI</th>
          <th>verdict</th>
          <th>mean diff</th>
          <th>median diff</th>
          <th>interval ({Math.round((1 - alpha) * 100)} %)</th>
          <th>p</th>
          <th>n</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.kpi} data-verdict={line.verdict}>
            <td>
              {line.kpi}
              {line.unit ? <span className="muted small"> ({line.unit})</span> : null}
            </td>
            <td>{line.verdict}</td>
            <td>{num(line.mean_difference)}</td>
            <td>{num(line.median_difference)}</td>
            <td>
              <IntervalBar line={line} /> <span className="muted small">{line.ci ? `[${num(line.ci[0]!)}, ${num(line.ci[1]!)}]` : ''}</span>
            </td>
            <td>{line.p_value === null ? '-' : line.p_value.toPrecision(3)}</td>
            <td>{line.n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each KPI's paired differences (candidate − baseline per pair) as a strip of dots around zero. */
export function DifferenceStrips({ lines }: { lines: readonly GateKpi[] }) {
  return (
    <>
      {lines.map((line) => (
        <DifferenceStrip key={line.kpi} line={line} />
      ))}
    </>
  );
}
