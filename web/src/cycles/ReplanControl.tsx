import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { rebaseConflictsOf, replanPlan } from '../api/cycles.ts';
import type { Plan } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import type { Scenario } from '../api/types.ts';
import { scenarioHref } from '../charts/scenario-href.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatDelta, formatNumber } from '../format.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { compareHref } from './compare-href.ts';
import { ConflictList } from './ConflictList.tsx';
import { churnWords } from './stale-words.ts';
import { replansOf } from './tree-of.ts';

/**
 * The plan card's Re-plan: the published plan's successor on the newest data (its edits re-applied),
 * run at once; then the latest successor, its status, how its KPIs and its result moved from the plan,
 * and the way to Compare them. Edits that no longer fit are listed, with the choice to leave them out.
 */
export function ReplanControl({ sid, plan, stale }: { sid: string; plan: Plan; stale: boolean }) {
  const api = useApi();
  const client = useQueryClient();
  const list = useScenarioList(sid);
  const replan = useMutation({
    mutationFn: (skip: boolean) => replanPlan(api, sid, { run: true, on_conflict: skip ? 'skip' : 'fail' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.datasets(sid) });
    },
  });
  const conflicts = rebaseConflictsOf(replan.error);
  // The latest re-plan, from the list (live): it stays shown after a reload, and its status moves as it runs.
  const latest = replan.data ? ((list.data ?? []).find((s) => s.id === replan.data.id) ?? replan.data) : replansOf(plan.scenario_id, list.data ?? [])[0];
  return (
    <div className="replan" data-testid="replan">
      <div className="row">
        <button type="button" className={stale ? 'primary' : undefined} onClick={() => replan.mutate(false)} disabled={replan.isPending}>
          {replan.isPending ? 'Re-planning…' : 'Re-plan on the newest data'}
        </button>
        {!stale && <span className="small muted">The plan is on the newest data; a re-plan runs it again from the plan.</span>}
      </div>
      {conflicts.length > 0 ? (
        <div className="alert warning" role="alert">
          <p style={{ marginTop: 0 }}>
            {conflicts.length === 1 ? 'One edit' : `${conflicts.length} edits`} of the plan’s data {conflicts.length === 1 ? 'does' : 'do'} not fit the new data, so nothing was made:
          </p>
          <ConflictList sid={sid} conflicts={conflicts} />
          <button type="button" onClick={() => replan.mutate(true)} disabled={replan.isPending}>
            Re-plan without {conflicts.length === 1 ? 'this edit' : 'these edits'}
          </button>
        </div>
      ) : (
        <ErrorNote error={replan.error} />
      )}
      {latest && <Successor sid={sid} plan={plan} successor={latest} />}
    </div>
  );
}

function Successor({ sid, plan, successor: s }: { sid: string; plan: Plan; successor: Scenario }) {
  const moved = Object.values(plan.kpis).flatMap((k) => {
    const now = s.kpis[k.name]?.value;
    return s.status === 'COMPLETE' && typeof now === 'number' && typeof k.value === 'number' ? [{ name: k.name, unit: k.unit, from: k.value, to: now }] : [];
  });
  return (
    <div className="small" data-testid="replan-successor" data-status={s.status}>
      <p style={{ margin: '0.35rem 0' }}>
        Re-planned as <a href={scenarioHref(sid, s.id)}>{s.tag}</a> <StatusBadge status={s.status} error={s.error} />
        {s.status !== 'COMPLETE' && s.status !== 'FAILED' && <span className="muted"> Its churn against the plan shows once it is complete.</span>}
      </p>
      {moved.length > 0 && (
        <ul className="param-changes" data-testid="replan-kpis">
          {moved.map((k) => (
            <li key={k.name}>
              {k.name}: {formatNumber(k.from)} → <strong>{formatNumber(k.to)}</strong> {k.unit} ({formatDelta(k.to - k.from)})
            </li>
          ))}
        </ul>
      )}
      {s.status === 'COMPLETE' && (
        <p style={{ margin: '0.35rem 0' }} data-testid="replan-churn">
          {s.plan_churn ? `Churn: ${churnWords(s.plan_churn)}.` : 'Churn: not measured (the result has no keyed table in common with the plan’s).'}{' '}
          <a href={compareHref(sid, [plan.scenario_id, s.id])}>Compare with the plan</a>
        </p>
      )}
    </div>
  );
}
