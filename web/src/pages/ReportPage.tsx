import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useApi } from '../api/context.tsx';
import { isGateReport, report as fetchReport, reportWorkbook, type Report } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import { InputsSection } from '../compare/InputsSection.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { UnavailablePage } from '../components/UnavailablePage.tsx';
import { saveBlob } from '../csv.ts';
import { actorName } from '../decisions/actor.ts';
import { formatTime } from '../format.ts';
import { useParameterLabels } from '../params/parameter-labels.ts';
import { usePageTitle } from '../page-title.ts';
import { frozenViews } from '../reports/frozen-view.ts';
import { FrozenExplanation } from '../reports/FrozenExplanation.tsx';
import { FrozenViewCard } from '../reports/FrozenViewCard.tsx';
import { GateReportDocument } from '../reports/GateReportDocument.tsx';
import { ReportKpis, SideBySide } from '../reports/ReportTables.tsx';
import { ReportHead } from '../reports/ReportHead.tsx';
import { usePrinting } from '../reports/use-printing.ts';
import { useSid } from '../session.ts';
import { ThemeContext, useTheme } from '../theme.ts';

/**
 * A saved report at its permalink (`#/s/{sid}/reports/{rid}`): everything it froze, drawn from the
 * frozen specs with the dashboard's view components, its workbook, and a print layout (decisions.css,
 * `@media print`): no navigation, each section on a page of its own, charts and tables whole, the title
 * atop and "Page n of m" under every page. **Print summary…** prints one or two pages instead: the
 * title and note, the KPIs and deltas, the parameters that differ and the inputs.
 */
export function ReportPage() {
  const api = useApi();
  const sid = useSid();
  const { rid = '' }: { rid?: string } = useParams({ strict: false });
  const report = useQuery({ queryKey: keys.report(sid, rid), queryFn: () => fetchReport(api, sid, rid), retry: false, staleTime: Infinity });
  usePageTitle(report.data ? `Report ${report.data.title}` : 'Report');
  if (!report.data) {
    return (
      <UnavailablePage
        heading="Report"
        lookupError={report.error}
        notFound={
          <>
            There is no report {rid} in this session. <Link to="/s/$sid/reports" params={{ sid }}>All reports</Link>
          </>
        }
        loading={report.isPending}
      />
    );
  }
  // A gate saved as a report has a document of its own: its verdict table, not a comparison.
  if (isGateReport(report.data)) return <GateReportDocument sid={sid} report={report.data} />;
  return <ReportDocument sid={sid} report={report.data} />;
}

/** What a print holds: everything, or the summary (the browser's own print is the full one). */
type PrintMode = 'full' | 'summary';

function ReportDocument({ sid, report: r }: { sid: string; report: Report }) {
  const theme = useTheme();
  // Paper is white: while printing, charts are drawn in the light theme whatever the screen shows.
  const printing = usePrinting();
  const [mode, setMode] = useState<PrintMode>('full');
  // A summary print is over when its print is: the browser's own print (Ctrl+P) is the full report again.
  useEffect(() => {
    if (mode === 'full') return;
    const done = () => setMode('full');
    window.addEventListener('afterprint', done);
    return () => window.removeEventListener('afterprint', done);
  }, [mode]);
  const print = (next: PrintMode) => {
    // The layout must be the summary's before the print dialog reads the page.
    flushSync(() => setMode(next));
    window.print();
  };
  const tagOf = (id: string) => r.scenarios.find((s) => s.id === id)?.tag ?? id;
  const labelOf = useParameterLabels(
    sid,
    r.scenarios.map((s) => s.algorithm),
    r.scenarios.map((s) => s.dataset_key),
  );
  // Compare's Inputs as they were when the report was saved: shown only when a scenario changed something.
  const changed = r.input_changes.some((c) => c.parameters.length > 0 || c.data !== null);
  const comparison = frozenViews(r.views.comparison);
  return (
    <ThemeContext.Provider value={printing ? 'light' : theme}>
      <article className="report" data-testid="report" data-printing={printing} data-print-mode={mode}>
        <ReportHead
          sid={sid}
          title={r.title}
          note={r.note}
          meta={`Saved by ${actorName(r.created_by)} on ${formatTime(r.created_at)} · ${r.scenarios.length} scenarios, baseline ${tagOf(r.baseline)}`}
          actions={<ReportActions sid={sid} report={r} onPrint={print} />}
        />
        <section className="report-section in-summary" aria-labelledby="report-kpis-title">
          <h2 id="report-kpis-title">KPIs and deltas</h2>
          <ReportKpis report={r} />
        </section>
        {r.explanations && <FrozenExplanation report={r} explanations={r.explanations} />}
        <section className="report-section report-params in-summary" aria-labelledby="report-params-title">
          <h2 id="report-params-title">Parameters</h2>
          <p className="small muted summary-only">Only those that differ between the scenarios.</p>
          <SideBySide
            report={r}
            rows={r.parameters}
            label="Parameters"
            first="Parameter"
            extra={{ name: 'Algorithm', value: (s) => s.algorithm }}
          />
        </section>
        <section className="report-section in-summary" aria-labelledby="report-inputs-title">
          <h2 id="report-inputs-title">Inputs</h2>
          <SideBySide report={r} rows={r.inputs} label="Inputs" first="Input" />
        </section>
        {changed && <InputsSection inputs={r.input_changes} baselineTag={tagOf(r.baseline)} tagOf={tagOf} labelOf={labelOf} />}
        <section className="report-section" aria-labelledby="report-comparison-title">
          <h2 id="report-comparison-title">Comparison views</h2>
          {comparison.length === 0 ? (
            <p className="muted">No comparison views were drawn for these scenarios.</p>
          ) : (
            <div className="views">
              {comparison.map((v) => (
                <FrozenViewCard key={v.name} view={v} of="comparison" />
              ))}
            </div>
          )}
        </section>
        {r.views.scenarios.map((s) => {
          const views = frozenViews(s.views);
          const titleId = `report-scenario-${s.scenario_id}`;
          return (
            <section key={s.scenario_id} className="report-section" aria-labelledby={titleId} data-testid="report-scenario">
              <h2 id={titleId}>Result of {s.tag}</h2>
              {views.length === 0 ? (
                <p className="muted">No result views: the scenario was not complete when the report was saved.</p>
              ) : (
                <div className="views">
                  {views.map((v) => (
                    <FrozenViewCard key={v.name} view={v} of={s.tag} />
                  ))}
                </div>
              )}
            </section>
          );
        })}
      </article>
    </ThemeContext.Provider>
  );
}

function ReportActions({ sid, report: r, onPrint }: { sid: string; report: Report; onPrint: (mode: PrintMode) => void }) {
  const api = useApi();
  const download = useMutation({ mutationFn: async () => saveBlob(await reportWorkbook(api, sid, r.id), `${r.title}.xlsx`) });
  return (
    <div className="row no-print" role="group" aria-label="Report actions">
      <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
        Download XLSX
      </button>
      <button type="button" onClick={() => onPrint('full')} title="Every section, each from a new page">
        Print…
      </button>
      <button type="button" onClick={() => onPrint('summary')} title="One or two pages: the KPIs and deltas, what differs, the note">
        Print summary…
      </button>
      <ErrorNote error={download.error} />
    </div>
  );
}
