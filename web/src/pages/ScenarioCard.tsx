import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { sendScenarioAction, type ScenarioAction } from '../api/scenario-action.ts';
import type { Scenario } from '../api/types.ts';
import { resetNeedsConfirm } from '../components/ResetScenarioDialog.tsx';
import { ScenarioConfirmations, type Confirming } from '../components/ScenarioConfirmations.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { RunProgress } from '../components/RunProgress.tsx';
import { RunReportLine } from '../components/RunReportLine.tsx';
import { FailureNote } from '../components/FailureNote.tsx';
import { isCancelled, StatusBadge } from '../components/StatusBadge.tsx';
import { ScenarioStale } from '../cycles/ScenarioStale.tsx';
import { churnWords } from '../cycles/stale-words.ts';
import { PlanMark } from '../decisions/PlanBadge.tsx';
import { usePlanLock } from '../decisions/PlanLock.tsx';
import { formatNumber, formatTime } from '../format.ts';
import { directionText } from '../kpis/direction.ts';
import { ACTIVE } from '../scenarios/active.ts';
import { finishedRunDuration } from '../scenarios/run-duration.ts';
import { keyParameters } from './card-facts.ts';
import { RunLogPanel } from './RunLogPanel.tsx';

/**
 * One scenario: status badge, whether new data arrived under it (with its Rebase), live progress and run
 * report, actions, KPIs and how far its result is from the plan's, a failure's message, and logs.
 */
export function ScenarioCard({
  sid,
  scenario: s,
  bestIn = [],
  selected,
  onSelect,
  isPlan = false,
  seedParameter = null,
}: {
  sid: string;
  scenario: Scenario;
  bestIn?: readonly string[];
  /** It is the session's published plan: the card carries the plan's badge. */
  isPlan?: boolean;
  /** The algorithm's seed parameter (`seed_parameter`): left unset, the card shows the run seed in its place. */
  seedParameter?: string | null;
  /** With `onSelect`, a checkbox ticks the card for the page's batch actions. */
  selected?: boolean;
  onSelect?: (on: boolean) => void;
}) {
  const api = useApi();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [showLogs, setShowLogs] = useState(false);
  // A server without the logs route: no Logs button or panel.
  const [logsUnavailable, setLogsUnavailable] = useState(false);
  const hideLogs = useCallback(() => {
    setLogsUnavailable(true);
    setShowLogs(false);
  }, []);
  const refresh = () => client.invalidateQueries({ queryKey: keys.scenarios(sid) });
  const act = useMutation({
    mutationFn: (action: ScenarioAction) => sendScenarioAction(api, sid, s.id, action),
    onSuccess: (_r, action) => {
      if (action === 'delete' || action === 'reset') setConfirming(null);
      void refresh();
    },
  });
  const active = ACTIVE.has(s.status);
  const kpis = Object.values(s.kpis);
  const titleId = `scenario-${s.id}`;
  const duration = finishedRunDuration(s);
  const params = keyParameters(s, 3, seedParameter);
  // The seed this run drew (or was given), named as on the scenario page.
  const runSeed = s.seed ?? null;
  // The published plan cannot be reset or deleted (the server refuses): its buttons say why instead.
  const lock = usePlanLock(isPlan);

  return (
    <article className="card" aria-labelledby={titleId} data-testid="scenario-card" data-tag={s.tag} data-status={s.status} style={{ marginBottom: 0 }}>
      <div className="row">
        {onSelect && <input type="checkbox" aria-label={`Tick ${s.tag}`} checked={selected === true} onChange={(e) => onSelect(e.target.checked)} data-testid="scenario-tick" />}
        <h3 id={titleId} style={{ margin: 0 }}>
          {/* A plain hash link (the app routes by the URL hash): the card also renders outside a router. */}
          <a href={`#/s/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(s.id)}`} data-testid="scenario-link">
            {s.tag}
          </a>
        </h3>
        <span className="spacer" />
        {isPlan && <PlanMark />}
        <StatusBadge status={s.status} error={s.error} />
      </div>
      <p className="small muted" style={{ margin: '0.25rem 0' }}>
        {s.algorithm.name} · {s.input_data_id}
        {duration && <span data-testid="duration"> · ran {duration}</span>}
      </p>
      {(params.length > 0 || runSeed !== null) && (
        <p className="small key-params" data-testid="key-params" style={{ margin: '0.25rem 0' }}>
          {params.map((p, i) => (
            <span key={p.name}>
              {i > 0 && ' · '}
              {p.label} <strong className={p.numeric ? 'number' : undefined}>{p.value}</strong>
            </span>
          ))}
          {runSeed !== null && (
            <span data-testid="card-seed" title="The random seed of this run">
              {params.length > 0 && ' · '}
              Run seed <strong className="number">{runSeed}</strong>
            </span>
          )}
        </p>
      )}
      <ScenarioStale sid={sid} scenario={s} />
      <RunProgress scenario={s} active={active} />
      <RunReportLine report={s.report} />
      {s.status === 'COMPLETE' && kpis.length > 0 && (
        <dl className="small" style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '0 0.75rem', margin: '0.5rem 0' }}>
          {kpis.map((k) => (
            <div key={k.name} style={{ display: 'contents' }}>
              <dt>
                {k.name} <span className="muted">({directionText(k.better_when)})</span>
              </dt>
              <dd style={{ margin: 0 }}>
                <span className="number" data-testid="card-kpi-value">
                  {formatNumber(k.value)} {k.unit}
                </span>
                {bestIn.includes(k.name) && (
                  <span className="best" data-testid="best">
                    {' '}
                    ★ best
                  </span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {s.plan_churn && !isPlan && (
        <p className="small" data-testid="card-churn" style={{ margin: '0.25rem 0' }}>
          {churnWords(s.plan_churn)}
        </p>
      )}
      {isCancelled(s) && (
        <p className="small muted" data-testid="cancelled">
          Cancelled: the run was stopped before it finished.
        </p>
      )}
      {s.status === 'FAILED' && s.error && !isCancelled(s) && <FailureNote code={s.error.code} message={s.error.message} />}
      <p className="small muted" style={{ margin: '0.25rem 0' }}>
        Created {formatTime(s.created_at)}
        {s.finished_at ? ` · finished ${formatTime(s.finished_at)}` : ''}
      </p>
      <div className="row">
        {s.status === 'CREATED' && (
          <button type="button" className="primary" onClick={() => act.mutate('run')} disabled={act.isPending} aria-label={`Run ${s.tag}`}>
            Run
          </button>
        )}
        {active && (
          <button type="button" onClick={() => act.mutate('cancel')} disabled={act.isPending} aria-label={`Cancel ${s.tag}`}>
            Cancel
          </button>
        )}
        {(s.status === 'COMPLETE' || s.status === 'FAILED') && (
          <button
            type="button"
            onClick={() => (resetNeedsConfirm(s) ? setConfirming('reset') : act.mutate('reset'))}
            disabled={act.isPending || lock.note !== null}
            aria-label={`Reset ${s.tag}`}
            aria-describedby={lock.describedBy}
          >
            Reset
          </button>
        )}
        {s.status !== 'CREATED' && !logsUnavailable && (
          <button type="button" onClick={() => setShowLogs(!showLogs)} aria-expanded={showLogs} aria-label={`Logs of ${s.tag}`}>
            Logs
          </button>
        )}
        <button type="button" className="danger" onClick={() => setConfirming('delete')} disabled={lock.note !== null} aria-label={`Delete ${s.tag}`} aria-describedby={lock.describedBy}>
          Delete
        </button>
      </div>
      {lock.note}
      {confirming === null && <ErrorNote error={act.error} />}
      {showLogs && !logsUnavailable && <RunLogPanel sid={sid} id={s.id} running={active} onUnavailable={hideLogs} />}
      <ScenarioConfirmations scenario={s} active={active} confirming={confirming} act={act} onDismiss={() => setConfirming(null)} />
    </article>
  );
}
