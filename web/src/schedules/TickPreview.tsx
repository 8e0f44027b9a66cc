import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { previewTicks, scheduleKeys } from '../api/schedules.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { formatInZone, hasSeconds } from './time-zones.ts';
import { useSettled } from './use-settled.ts';

/** How long the typing must rest before the server is asked. */
const SETTLE_MS = 300;

/**
 * The next five ticks of what the form says, from the server (the cron library that will run them),
 * in the chosen zone's wall clock; a cron or zone the server refuses shows its refusal instead.
 */
export function TickPreview({ sid, cron, timezone, problem }: { sid: string; cron: string | null; timezone: string; problem: string | null }) {
  const api = useApi();
  // Each settles on its own value (a fresh object would restart the wait at every render).
  const settled = { cron: useSettled(cron, SETTLE_MS), timezone: useSettled(timezone, SETTLE_MS) };
  const ready = settled.cron !== null && settled.cron !== '' && settled.timezone.trim() !== '';
  const preview = useQuery({
    queryKey: scheduleKeys.preview(sid, settled.cron ?? '', settled.timezone),
    queryFn: () => previewTicks(api, sid, settled.cron ?? '', settled.timezone.trim()),
    enabled: ready,
    retry: false,
    // The next ticks move on as time does: a form left open keeps them current.
    refetchInterval: 60_000,
  });
  const ticks = preview.data ?? [];
  return (
    <div aria-live="polite" data-testid="tick-preview">
      <p className="small" style={{ margin: '0.25rem 0' }}>
        <strong>Next runs</strong> <span className="muted">({settled.timezone.trim() || 'no time zone'})</span>
      </p>
      {problem !== null ? (
        <p className="error-text">{problem}</p>
      ) : preview.error ? (
        <ErrorNote error={preview.error} />
      ) : preview.isFetching && ticks.length === 0 ? (
        <p className="muted small">Working out the next runs…</p>
      ) : (
        <ol className="small" data-testid="next-ticks">
          {ticks.map((t) => (
            <li key={t}>
              <time dateTime={t}>{formatInZone(t, settled.timezone.trim(), hasSeconds(ticks))}</time>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
