import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { listSchedules, scheduleKeys } from '../api/schedules.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';
import { DropFolders } from './DropFolders.tsx';
import { ScheduleForm } from './ScheduleForm.tsx';
import { ScheduleList } from './ScheduleList.tsx';
import { useScheduleNames } from './use-schedule-names.ts';

/** How often the list is read again: each schedule's last run and next runs move with time. */
const POLL_MS = 5000;

/** Schedules: the planning cycle running by itself. The session's schedules, where to drop data, and a form for a new one. */
export function SchedulesPage() {
  const api = useApi();
  usePageTitle('Schedules');
  const sid = useSid();
  const names = useScheduleNames(sid);
  const list = useQuery({ queryKey: scheduleKeys.all(sid), queryFn: () => listSchedules(api, sid), refetchInterval: POLL_MS });
  const schedules = list.data ?? [];
  return (
    <>
      <h1>Schedules</h1>
      <p className="muted">Runs the planning cycle at set times: load the newest data dropped for a dataset, re-plan or rerun, and raise an alert when the result moves from the plan.</p>
      <section aria-labelledby="schedules-title">
        <h2 id="schedules-title">
          All schedules <span className="muted small">({schedules.length})</span>
        </h2>
        <ErrorNote error={list.error} />
        {list.data?.length === 0 && <p className="muted">No schedules yet.</p>}
        {schedules.length > 0 && <ScheduleList sid={sid} schedules={schedules} names={names} />}
      </section>
      <DropFolders schedules={schedules} />
      <ScheduleForm sid={sid} />
    </>
  );
}
