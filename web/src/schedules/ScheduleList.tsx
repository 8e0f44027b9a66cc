import { Link } from '@tanstack/react-router';
import type { Schedule } from '../api/schedules.ts';
import { ScheduleActions } from './ScheduleActions.tsx';
import { ScheduleFacts, ScheduleStateBadge } from './ScheduleFacts.tsx';
import type { ScheduleNames } from './schedule-words.ts';

/** The session's schedules, each with its state, what it does, its next and last run, and its buttons. */
export function ScheduleList({ sid, schedules, names }: { sid: string; schedules: readonly Schedule[]; names: ScheduleNames }) {
  return (
    <ul data-testid="schedule-list" style={{ listStyle: 'none', padding: 0 }}>
      {schedules.map((s) => (
        <li key={s.id} className="card" data-testid="schedule-item" style={{ marginBottom: '0.75rem' }}>
          <div className="row">
            <h3 style={{ margin: 0 }}>
              <Link to="/s/$sid/schedules/$schid" params={{ sid, schid: s.id }}>
                {s.name}
              </Link>
            </h3>
            <ScheduleStateBadge active={s.active} />
          </div>
          <ScheduleFacts schedule={s} names={names} />
          <ScheduleActions sid={sid} schedule={s} />
        </li>
      ))}
    </ul>
  );
}
