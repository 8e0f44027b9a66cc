import { useMemo } from 'react';
import { CRON_KIND_LABELS, type CronDraft, type CronKind } from './cron-choices.ts';
import { timeZoneNames } from './time-zones.ts';

const KINDS: readonly CronKind[] = ['weekdays', 'daily', 'hourly', 'minutes', 'raw'];

/** When a schedule runs: one plain choice with its value (or a raw cron), and the time zone its clock reads. */
export function CronFields({ draft, onDraft, timezone, onTimezone }: { draft: CronDraft; onDraft: (d: CronDraft) => void; timezone: string; onTimezone: (tz: string) => void }) {
  const zones = useMemo(() => timeZoneNames(), []);
  const set = (change: Partial<CronDraft>) => onDraft({ ...draft, ...change });
  const valueOf = (kind: CronKind) => {
    switch (kind) {
      case 'weekdays':
      case 'daily':
        return <input type="time" aria-label={`${CRON_KIND_LABELS[kind]} (time)`} value={draft.time} onChange={(e) => set({ kind, time: e.target.value })} />;
      case 'hourly':
        return <input type="number" min={0} max={59} aria-label="minute past each hour" value={draft.minute} onChange={(e) => set({ kind, minute: e.target.value })} style={{ width: '5rem' }} />;
      case 'minutes':
        return <input type="number" min={1} max={59} aria-label="minutes between runs" value={draft.every} onChange={(e) => set({ kind, every: e.target.value })} style={{ width: '5rem' }} />;
      case 'raw':
        return <input aria-label="cron expression" value={draft.raw} onChange={(e) => set({ kind, raw: e.target.value })} placeholder="0 5 * * 1-5" spellCheck={false} />;
    }
  };
  return (
    <fieldset>
      <legend>When</legend>
      {KINDS.map((kind) => (
        <div key={kind} className="row" style={{ marginBottom: '0.35rem' }}>
          <label className="check">
            <input type="radio" name="cron-kind" checked={draft.kind === kind} onChange={() => set({ kind })} /> {CRON_KIND_LABELS[kind]}
          </label>
          {draft.kind === kind && valueOf(kind)}
        </div>
      ))}
      {draft.kind === 'minutes' && <p className="muted small">Counted from the start of each hour: every 25 minutes runs at :00, :25 and :50.</p>}
      {draft.kind === 'raw' && (
        <p className="muted small">
          Minute, hour, day of month, month, day of week (<code>0 5 * * 1-5</code>), or six fields with seconds first (<code>*/30 * * * * *</code>).
        </p>
      )}
      <div className="field" style={{ marginTop: '0.5rem' }}>
        <label htmlFor="schedule-timezone">Time zone</label>
        <input id="schedule-timezone" list="schedule-timezones" value={timezone} onChange={(e) => onTimezone(e.target.value)} spellCheck={false} autoComplete="off" />
        <datalist id="schedule-timezones">
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <span className="hint">An IANA name such as Europe/Amsterdam; runs follow its clock across daylight-saving changes.</span>
      </div>
    </fieldset>
  );
}
