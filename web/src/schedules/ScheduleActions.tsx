import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { deleteSchedule, patchSchedule, runScheduleNow, scheduleKeys, type Schedule } from '../api/schedules.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';

/**
 * Pause or resume, run now, delete (asked first): each answers with the server's words when refused.
 * `onDeleted` lets a schedule's own page leave once it is gone.
 */
export function ScheduleActions({ sid, schedule, onDeleted }: { sid: string; schedule: Schedule; onDeleted?: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [ran, setRan] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: scheduleKeys.all(sid) });
  const toggle = useMutation({ mutationFn: (active: boolean) => patchSchedule(api, sid, schedule.id, { active }), onSuccess: refresh });
  const run = useMutation({
    mutationFn: () => runScheduleNow(api, sid, schedule.id),
    onSuccess: async (tick) => {
      setRan(tick.status === 'skipped' ? `Not run: ${tick.reason ?? 'a run of it is still going'}` : 'Started a run now; its outcome shows in the run history.');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSchedule(api, sid, schedule.id),
    onSuccess: async () => {
      setAsking(false);
      client.removeQueries({ queryKey: scheduleKeys.one(sid, schedule.id) });
      await refresh();
      onDeleted?.();
    },
  });
  const busy = toggle.isPending || run.isPending || remove.isPending;
  return (
    <>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => toggle.mutate(!schedule.active)} aria-label={`${schedule.active ? 'Pause' : 'Resume'} ${schedule.name}`}>
          {schedule.active ? 'Pause' : 'Resume'}
        </button>
        <button type="button" disabled={busy} onClick={() => run.mutate()} aria-label={`Run ${schedule.name} now`}>
          Run now
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => setAsking(true)} aria-label={`Delete ${schedule.name}`}>
          Delete
        </button>
      </div>
      {ran && (
        <p className="muted small" role="status">
          {ran}
        </p>
      )}
      <ErrorNote error={toggle.error ?? run.error} />
      <ConfirmDialog
        open={asking}
        title={`Delete the schedule ${schedule.name}?`}
        message={
          <>
            <p>It stops running and its run history goes with it. The scenarios and data versions its runs made stay.</p>
            <ErrorNote error={remove.error} />
          </>
        }
        confirmLabel="Delete schedule"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => {
          setAsking(false);
          remove.reset();
        }}
      />
    </>
  );
}
