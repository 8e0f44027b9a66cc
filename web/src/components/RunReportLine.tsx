import { hasContent, type RunReport } from '../api/run-report.ts';
import { formatNumber, formatTime } from '../format.ts';

/** A run's latest report beside its progress: objective, best so far and message, whichever it gave. */
export function RunReportLine({ report }: { report: RunReport | undefined }) {
  if (!hasContent(report)) return null;
  return (
    <p className="small run-report" data-testid="run-report" title={`reported ${formatTime(report.at)}`} style={{ margin: '0.25rem 0' }}>
      {report.objective !== null && (
        <span>
          Objective <strong data-testid="objective">{formatNumber(report.objective)}</strong>
        </span>
      )}
      {report.best_so_far !== null && (
        <span>
          Best so far <strong data-testid="best-so-far">{formatNumber(report.best_so_far)}</strong>
        </span>
      )}
      {report.message !== null && report.message !== '' && <span data-testid="report-message">{report.message}</span>}
    </p>
  );
}
