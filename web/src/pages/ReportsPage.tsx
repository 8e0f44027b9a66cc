import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { listReports } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { actorName } from '../decisions/actor.ts';
import { formatTime } from '../format.ts';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';

/** The session's saved reports, the latest first, each a link to its permalink. */
export function ReportsPage() {
  const api = useApi();
  const sid = useSid();
  usePageTitle('Reports');
  const reports = useQuery({ queryKey: keys.reports(sid), queryFn: () => listReports(api, sid) });
  const latestFirst = [...(reports.data ?? [])].reverse();
  return (
    <>
      <h1>Reports</h1>
      <ErrorNote error={reports.error} />
      {reports.isPending && <p role="status">Loading…</p>}
      {reports.data?.length === 0 && (
        <p className="muted">
          No reports yet. On <Link to="/s/$sid/compare" params={{ sid }}>Compare</Link>, choose “Save as report…” to keep a comparison as it is; a complete gate can be saved the same way from its page.
        </p>
      )}
      {latestFirst.length > 0 && (
        <ul className="report-list" data-testid="report-list">
          {latestFirst.map((r) => (
            <li key={r.id} className="card">
              <Link to="/s/$sid/reports/$rid" params={{ sid, rid: r.id }}>
                <strong>{r.title}</strong>
              </Link>
              <div className="small muted">
                {r.kind === 'gate' ? `gate verdict, ${r.scenario_ids.length} runs` : `${r.scenario_ids.length} scenarios`} · saved by {actorName(r.created_by)} on {formatTime(r.created_at)}
              </div>
              {r.note && <p className="small" style={{ margin: '0.3rem 0 0' }}>{r.note}</p>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
