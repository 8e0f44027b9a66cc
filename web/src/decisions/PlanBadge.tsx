import { usePlanScenarioId } from './use-plan.ts';

/** The badge itself, for a page that already knows which scenario is the plan (the list's cards). */
export function PlanMark() {
  return (
    <span className="badge plan-badge" data-testid="plan-badge" title="The session's published plan">
      Plan
    </span>
  );
}

/** "Plan" beside a scenario that is the session's published plan; nothing beside any other. */
export function PlanBadge({ sid, scenarioId }: { sid: string; scenarioId: string }) {
  return usePlanScenarioId(sid) === scenarioId ? <PlanMark /> : null;
}
