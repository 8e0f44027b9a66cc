import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { plan } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import { createSchedule, scheduleKeys, type NewSchedule, type Schedule } from '../api/schedules.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { composeCron } from './cron-choices.ts';
import { CronFields } from './CronFields.tsx';
import { NotifyFields } from './NotifyFields.tsx';
import { newDraft, scheduleBody, type ActionKind, type CatchUpMode, type ScheduleDraft } from './schedule-draft.ts';
import { TickPreview } from './TickPreview.tsx';
import { browserTimeZone } from './time-zones.ts';

const ACTIONS: readonly { kind: ActionKind; label: string }[] = [
  { kind: 'replan', label: 'Re-plan the published plan on the newest data' },
  { kind: 'rerun', label: 'Rerun a scenario' },
  { kind: 'experiment', label: 'Rerun an experiment' },
];

const CATCH_UP: readonly { mode: CatchUpMode; label: string }[] = [
  { mode: 'latest', label: 'run once for the latest missed time' },
  { mode: 'all', label: 'run every missed time (up to 10)' },
  { mode: 'none', label: 'skip them' },
];

/**
 * A new schedule, written for a planner: when (plain choices or a cron) in which time zone with the
 * next five runs shown as they are typed, what to do, the dataset refreshed from its drop folder
 * first, alert thresholds, and what to do with runs missed while the server was down.
 */
export function ScheduleForm({ sid, onCreated }: { sid: string; onCreated?: (created: Schedule) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ScheduleDraft>(() => newDraft(browserTimeZone()));
  const [problems, setProblems] = useState<readonly string[]>([]);
  const set = (change: Partial<ScheduleDraft>) => setDraft((d) => ({ ...d, ...change }));
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const scenarios = useScenarioList(sid);
  const experiments = useQuery({ queryKey: keys.experiments(sid), queryFn: () => api.listExperiments(sid) });
  const published = useQuery({ queryKey: keys.plan(sid), queryFn: () => plan(api, sid), retry: false });
  const create = useMutation({
    mutationFn: (body: NewSchedule) => createSchedule(api, sid, body),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.all(sid) });
      setDraft(newDraft(draft.timezone));
      onCreated?.(created);
    },
  });
  const composed = composeCron(draft.cron);

  const submit = () => {
    const built = scheduleBody(draft);
    if ('problems' in built) {
      setProblems(built.problems);
      return;
    }
    setProblems([]);
    create.mutate(built.body);
  };

  return (
    <section aria-labelledby="new-schedule-title">
      <h2 id="new-schedule-title">New schedule</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="field">
          <label htmlFor="schedule-name">Name</label>
          <input id="schedule-name" value={draft.name} maxLength={200} onChange={(e) => set({ name: e.target.value })} placeholder="nightly re-plan" />
        </div>
        <CronFields draft={draft.cron} onDraft={(cron) => set({ cron })} timezone={draft.timezone} onTimezone={(timezone) => set({ timezone })} />
        <TickPreview sid={sid} cron={'cron' in composed ? composed.cron : null} timezone={draft.timezone} problem={'problem' in composed ? composed.problem : null} />
        <fieldset>
          <legend>What to do</legend>
          {ACTIONS.map((a) => (
            <div key={a.kind} className="row" style={{ marginBottom: '0.35rem' }}>
              <label className="check">
                <input type="radio" name="schedule-action" checked={draft.action === a.kind} onChange={() => set({ action: a.kind })} /> {a.label}
              </label>
              {draft.action === 'rerun' && a.kind === 'rerun' && (
                <select aria-label="scenario to rerun" value={draft.scenario} onChange={(e) => set({ scenario: e.target.value })}>
                  <option value="">choose…</option>
                  {(scenarios.data ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.tag}
                    </option>
                  ))}
                </select>
              )}
              {draft.action === 'experiment' && a.kind === 'experiment' && (
                <select aria-label="experiment to rerun" value={draft.experiment} onChange={(e) => set({ experiment: e.target.value })}>
                  <option value="">choose…</option>
                  {(experiments.data ?? []).map((x) => (
                    <option key={x.id} value={x.id}>
                      {x.name}
                    </option>
                  ))}
                </select>
              )}
            </div>
          ))}
          {draft.action === 'replan' && published.data && published.data.current === null && (
            <p className="alert warning small" data-testid="no-plan-note">
              This session has no published plan yet: publish a scenario as the plan first (on its page), or pick another action.
            </p>
          )}
          {draft.action === 'replan' && published.data?.current && (
            <p className="muted small">The plan now: {published.data.current.tag}. Each run makes its successor on the newest data.</p>
          )}
        </fieldset>
        <fieldset>
          <legend>Fresh data first (optional)</legend>
          <label htmlFor="schedule-refresh">Load the files dropped for</label>{' '}
          <select id="schedule-refresh" value={draft.refresh} onChange={(e) => set({ refresh: e.target.value })}>
            <option value="">no dataset (use the data as it is)</option>
            {(datasets.data ?? []).map((d) => (
              <option key={d.key} value={d.key}>
                {d.key}
              </option>
            ))}
          </select>
          {draft.refresh !== '' && (
            <p className="muted small">
              Files placed in the drop folder <code>&lt;drop folder&gt;/{sid}/{draft.refresh}/</code> go through the data checks as a new version of{' '}
              {draft.refresh} before each run; the full path shows with the schedule once it is saved. A file that fails the checks fails its run and changes
              nothing.
            </p>
          )}
        </fieldset>
        <NotifyFields sid={sid} draft={draft.notify} onDraft={(notify) => set({ notify })} />
        <div className="field" style={{ marginTop: '0.75rem' }}>
          <label htmlFor="schedule-catch-up">Runs missed while the server was down</label>
          <select id="schedule-catch-up" value={draft.catchUp} onChange={(e) => set({ catchUp: e.target.value as CatchUpMode })}>
            {CATCH_UP.map((c) => (
              <option key={c.mode} value={c.mode}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        {problems.length > 0 && (
          <div className="alert error" role="alert" data-testid="schedule-form-problems">
            <ul style={{ margin: 0 }}>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        <button type="submit" disabled={create.isPending}>
          Create schedule
        </button>
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}
