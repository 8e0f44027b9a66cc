import { useMutation } from '@tanstack/react-query';
import { reportWorkbook, type GateReport } from '../api/decisions.ts';
import { useApi } from '../api/context.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { saveBlob } from '../csv.ts';
import { actorName } from '../decisions/actor.ts';
import { formatTime } from '../format.ts';
import { DifferenceStrips, VerdictTable } from '../gates/VerdictTable.tsx';
import { ReportHead } from './ReportHead.tsx';

type Side = GateReport['gate']['baseline'];

const sideText = (s: Side) => {
  const data = s.data_params && typeof s.data_params === 'object' && Object.keys(s.data_params).length > 0 ? ` · data ${JSON.stringify(s.data_params)}` : '';
  return `${s.algo_name} ${JSON.stringify(s.algo_params ?? {})}${data}`;
};

/** What the gate's `inputs` asked for, in words. */
function inputsText(inputs: unknown): string {
  const asked = (inputs ?? {}) as { datasets?: string[]; derived_from?: string; plan_versions?: number };
  if (asked.datasets) return `the datasets ${asked.datasets.join(', ')}`;
  if (asked.derived_from !== undefined) return `every what-if derived from ${asked.derived_from}`;
  if (asked.plan_versions !== undefined) return `the datasets of the last ${asked.plan_versions} published plan${asked.plan_versions === 1 ? '' : 's'}`;
  return JSON.stringify(inputs);
}

/**
 * A gate saved as a report, at the report's permalink: the verdict and its table with each interval
 * drawn, the paired differences per KPI, and what produced them (both sides, the inputs as asked and
 * as resolved, repeats, alpha, rule), with who saved it and when. Prints as the comparison reports do
 * (decisions.css): no navigation, the title atop and "Page n of m" under every page.
 */
export function GateReportDocument({ sid, report: r }: { sid: string; report: GateReport }) {
  const api = useApi();
  const download = useMutation({ mutationFn: async () => saveBlob(await reportWorkbook(api, sid, r.id), `${r.title}.xlsx`) });
  const g = r.gate;
  const effect = typeof g.min_effect === 'number' ? String(g.min_effect) : JSON.stringify(g.min_effect);
  return (
    <article className="report" data-testid="report" data-kind="gate">
      <ReportHead
        sid={sid}
        title={r.title}
        note={r.note}
        meta={`Saved by ${actorName(r.created_by)} on ${formatTime(r.created_at)} · gate ${g.name}, created ${formatTime(g.created_at)}`}
        actions={
          <div className="row no-print" role="group" aria-label="Report actions">
            <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
              Download XLSX
            </button>
            <button type="button" onClick={() => window.print()}>
              Print…
            </button>
            <ErrorNote error={download.error} />
          </div>
        }
      />
      <section className="report-section in-summary" aria-labelledby="gate-verdict-title">
        <h2 id="gate-verdict-title" data-testid="gate-verdict">
          Verdict: <strong>{r.verdict}</strong>
        </h2>
        <VerdictTable lines={r.kpis} alpha={g.alpha} />
        <p className="small muted">
          Differences are candidate − baseline per pair; the interval is the two-sided {Math.round((1 - g.alpha) * 100)} % t-interval of their mean, zero marked.
        </p>
      </section>
      <section className="report-section" aria-labelledby="gate-differences-title">
        <h2 id="gate-differences-title">Paired differences</h2>
        <DifferenceStrips lines={r.kpis} />
      </section>
      <section className="report-section in-summary" aria-labelledby="gate-inputs-title">
        <h2 id="gate-inputs-title">Configuration and inputs</h2>
        <table className="report-table" data-testid="gate-configuration">
          <tbody>
            <tr>
              <th scope="row">Baseline</th>
              <td>
                <code>{sideText(g.baseline)}</code>
              </td>
            </tr>
            <tr>
              <th scope="row">Candidate</th>
              <td>
                <code>{sideText(g.candidate)}</code>
              </td>
            </tr>
            <tr>
              <th scope="row">Inputs</th>
              <td>
                {inputsText(g.inputs)}: {g.dataset_keys.join(', ')}
              </td>
            </tr>
            <tr>
              <th scope="row">Runs</th>
              <td>
                {g.repeats} pair{g.repeats === 1 ? '' : 's'} per input · {g.size} runs ({g.counts.COMPLETE} complete, {g.counts.FAILED} failed)
              </td>
            </tr>
            <tr>
              <th scope="row">Alpha, minimum effect</th>
              <td>
                {g.alpha} · {effect}
              </td>
            </tr>
            <tr>
              <th scope="row">Rule</th>
              <td>
                passes when {g.rule.must_pass.join(', ') || 'nothing'} pass{g.rule.must_pass.length === 1 ? 'es' : ''}, and none of {g.rule.must_not_fail.join(', ') || '-'} fails
              </td>
            </tr>
          </tbody>
        </table>
      </section>
    </article>
  );
}
