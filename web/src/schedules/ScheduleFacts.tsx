import type { Schedule } from '../api/schedules.ts';
import { formatInZone, hasSeconds } from './time-zones.ts';
import { actionText, notifyText, TICK_BADGE, tickProblem, whenText, type ScheduleNames } from './schedule-words.ts';

/** Whether it runs: active, or paused (no next runs). */
export function ScheduleStateBadge({ active }: { active: boolean }) {
  return (
    <span className="badge" data-status={active ? 'COMPLETE' : 'QUEUED'} data-testid="schedule-state">
      {active ? 'active' : 'paused'}
    </span>
  );
}

/** What a schedule does and when, its drop folder, alerts, next run and last run, as a planner reads them. */
export function ScheduleFacts({ schedule: s, names, allNext = false }: { schedule: Schedule; names: ScheduleNames; allNext?: boolean }) {
  const next = allNext ? s.next_ticks : s.next_ticks.slice(0, 1);
  const seconds = hasSeconds(s.next_ticks);
  const notify = notifyText(s.notify);
  const last = s.last_tick;
  const problem = last ? tickProblem(last) : null;
  return (
    <dl className="facts small">
      <dt>When</dt>
      <dd>{whenText(s)}</dd>
      <dt>Does</dt>
      <dd>{actionText(s.action, names)}</dd>
      {s.refresh && (
        <>
          <dt>Fresh data</dt>
          <dd>
            first loads the files dropped for <strong>{s.refresh.dataset}</strong> into <code data-testid="drop-folder">{s.refresh.drop_folder}</code>
          </dd>
        </>
      )}
      {notify && (
        <>
          <dt>Alerts</dt>
          <dd>{notify}</dd>
        </>
      )}
      <dt>{allNext ? 'Next runs' : 'Next run'}</dt>
      <dd data-testid="schedule-next">
        {next.length === 0 ? (
          <span className="muted">{s.active ? 'none due' : 'none while paused'}</span>
        ) : (
          next.map((t, i) => (
            <span key={t}>
              {i > 0 && <br />}
              <time dateTime={t}>{formatInZone(t, s.timezone, seconds)}</time>
            </span>
          ))
        )}
      </dd>
      <dt>Last run</dt>
      <dd data-testid="schedule-last">
        {last === null ? (
          <span className="muted">not yet</span>
        ) : (
          <>
            <span className="badge" data-status={TICK_BADGE[last.status]}>
              {last.status}
            </span>{' '}
            due <time dateTime={last.due_at}>{formatInZone(last.due_at, s.timezone, hasSeconds([last.due_at]))}</time>
            {problem && <span className="muted">: {problem}</span>}
            {last.outcome && last.outcome.alerts.length > 0 && (
              <strong className="warn-text">
                {' '}
                · {last.outcome.alerts.length} alert{last.outcome.alerts.length === 1 ? '' : 's'}
              </strong>
            )}
          </>
        )}
      </dd>
    </dl>
  );
}
