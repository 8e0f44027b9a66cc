import { Link } from '@tanstack/react-router';
import type { Tick } from '../api/schedules.ts';
import { ScrollTable } from '../components/ScrollTable.tsx';
import { alertText, TICK_BADGE, tickProblem } from './schedule-words.ts';
import { formatAfter, formatInZone, hasSeconds } from './time-zones.ts';

/**
 * A schedule's runs, newest first: when each was due, started and ended (in the schedule's zone), its
 * outcome with the error or the reason it was skipped, the data version it used, the scenarios it
 * made (links) and the alerts it raised.
 */
export function TickHistory({ sid, ticks, timezone, tags }: { sid: string; ticks: readonly Tick[]; timezone: string; tags: ReadonlyMap<string, string> }) {
  if (ticks.length === 0) return <p className="muted">No runs yet: the first shows here when it is due, or press Run now.</p>;
  const seconds = hasSeconds(ticks.map((t) => t.due_at));
  return (
    <ScrollTable label="Run history" testId="tick-history" headings={['Due', 'Started', 'Ended', 'Outcome', 'Data version', 'Scenarios', 'Alerts']}>
      {ticks.map((t) => {
        const problem = tickProblem(t);
        // A tick's own outcome names its scenarios' tags as they were; the session's list, as they are now.
        const tagOf = (id: string) => t.outcome?.scenarios.find((s) => s.scenario_id === id)?.tag ?? tags.get(id) ?? id.slice(0, 8);
        const alerts = t.outcome?.alerts ?? [];
        const after = (iso: string | null) => (iso === null ? '—' : formatAfter(iso, t.due_at, timezone));
        return (
          <tr key={t.id} data-testid="tick-row" data-status={t.status}>
            <td>
              <time dateTime={t.due_at}>{formatInZone(t.due_at, timezone, seconds)}</time>
              {t.manual && <span className="muted small"> (run now)</span>}
              {t.missed > 0 && <span className="muted small"> (for {t.missed} missed)</span>}
            </td>
            <td>{after(t.started_at)}</td>
            <td>{after(t.ended_at)}</td>
            <td>
              <span className="badge" data-status={TICK_BADGE[t.status]}>
                {t.status}
              </span>
              {problem && <div data-testid="tick-problem">{problem}</div>}
              {t.refresh && (
                <div className="muted small">
                  {t.refresh.files.length === 0
                    ? `no new files for ${t.refresh.dataset}`
                    : `loaded ${t.refresh.files.join(', ')} into ${t.refresh.dataset}${t.refresh.success === false ? ' (refused by the data checks)' : ''}`}
                </div>
              )}
            </td>
            <td className="num">{t.data_version ?? '—'}</td>
            <td>
              {t.scenario_ids.length === 0
                ? '—'
                : t.scenario_ids.map((id, i) => (
                    <span key={id}>
                      {i > 0 && ', '}
                      <Link to="/s/$sid/scenarios/$id" params={{ sid, id }} data-testid="tick-scenario">
                        {tagOf(id)}
                      </Link>
                    </span>
                  ))}
            </td>
            <td>
              {alerts.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <ul style={{ margin: 0, paddingLeft: '1rem' }} data-testid="tick-alerts">
                  {alerts.map((a, i) => (
                    <li key={i} className="warn-text">
                      {alertText(a, new Map(t.outcome?.scenarios.map((s) => [s.scenario_id, s.tag])))}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        );
      })}
    </ScrollTable>
  );
}
