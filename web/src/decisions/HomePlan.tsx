import { Link } from '@tanstack/react-router';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ReplanControl } from '../cycles/ReplanControl.tsx';
import { StaleNote } from '../cycles/StaleNote.tsx';
import { formatTime } from '../format.ts';
import { actorName } from './actor.ts';
import { KpiTiles } from './KpiTiles.tsx';
import { useCurrentPlan } from './use-plan.ts';

/**
 * The home's record of decisions: the session's published plan (its tag, KPIs when published, the
 * note, who and when, a link to it), whether new data has arrived under it and the Re-plan that follows
 * it, and the way to its Activity and its reports.
 */
export function HomePlan({ sid }: { sid: string }) {
  const { plan, loading, error } = useCurrentPlan(sid);
  return (
    <section className="card" aria-labelledby="plan-title" data-testid="home-plan">
      <h2 id="plan-title" style={{ marginTop: 0 }}>
        Plan
      </h2>
      <ErrorNote error={error} />
      {loading && <p role="status">Loading…</p>}
      {!loading && !error && plan === null && (
        <p className="muted">No plan is published. Open a finished scenario and choose “Publish as plan…” to record the decision.</p>
      )}
      {plan && (
        <>
          <p>
            <Link to="/s/$sid/scenarios/$id" params={{ sid, id: plan.scenario_id }} data-testid="plan-link">
              <strong>{plan.tag}</strong>
            </Link>{' '}
            <span className="badge plan-badge">Plan</span> <span className="muted small">{plan.algorithm} on {plan.dataset_key}</span>
          </p>
          {/* New data under the plan: the Re-plan goes with the words that say so. */}
          <StaleNote mark={plan.stale} subject={{ kind: 'plan', dataset: plan.dataset_key }}>
            <ReplanControl sid={sid} plan={plan} stale />
          </StaleNote>
          <KpiTiles kpis={plan.kpis} />
          <blockquote className="plan-note" data-testid="plan-note">
            {plan.note}
          </blockquote>
          <p className="small muted" data-testid="plan-by">
            Published by {actorName(plan.published_by)} on {formatTime(plan.published_at)}
          </p>
          {!plan.stale && <ReplanControl sid={sid} plan={plan} stale={false} />}
        </>
      )}
      <div className="row">
        <Link className="button" to="/s/$sid/activity" params={{ sid }}>
          Activity
        </Link>
        <Link className="button" to="/s/$sid/reports" params={{ sid }}>
          Reports
        </Link>
      </div>
    </section>
  );
}
