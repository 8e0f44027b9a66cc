import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { listTicks, schedule as readSchedule, scheduleKeys } from '../api/schedules.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';
import { ScheduleActions } from './ScheduleActions.tsx';
import { ScheduleFacts, ScheduleStateBadge } from './ScheduleFacts.tsx';
import { TickHistory } from './TickHistory.tsx';
import { useScheduleNames } from './use-schedule-names.ts';

/** Read again this often while a run goes on or more are due; a paused schedule with nothing running stays still. */
const POLL_MS = 2000;

/** One schedule: what it does, its next five runs, its buttons, and the history of its runs. */
export function SchedulePage() {
  const api = useApi();
  const sid = useSid();
  const navigate = useNavigate();
  const { schid } = useParams({ from: '/s/$sid/schedules/$schid' });
  const names = useScheduleNames(sid);
  const query = useQuery({
    queryKey: scheduleKeys.one(sid, schid), queryFn: () => readSchedule(api, sid, schid),
    refetchInterval: (q) => (q.state.data && !q.state.data.active && q.state.data.last_tick?.status !== 'running' ? false : POLL_MS),
  });
  const s = query.data;
  const moving = s !== undefined && (s.active || s.last_tick?.status === 'running');
  const ticks = useQuery({ queryKey: scheduleKeys.ticks(sid, schid), queryFn: () => listTicks(api, sid, schid), enabled: s !== undefined, refetchInterval: moving ? POLL_MS : false });
  usePageTitle(s ? `Schedule ${s.name}` : 'Schedule');
  if (!s) return <ErrorNote error={query.error} />;
  return (
    <>
      <div className="row">
        <h1 style={{ margin: 0 }}>Schedule {s.name}</h1>
        <ScheduleStateBadge active={s.active} />
      </div>
      <ScheduleFacts schedule={s} names={names} allNext />
      <ScheduleActions sid={sid} schedule={s} onDeleted={() => void navigate({ to: '/s/$sid/schedules', params: { sid } })} />
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        <ErrorNote error={ticks.error} />
        {ticks.data && <TickHistory sid={sid} ticks={ticks.data} timezone={s.timezone} tags={names.scenarios} />}
      </section>
    </>
  );
}
