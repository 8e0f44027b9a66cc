import { usePlanScenarioId } from './use-plan.ts';

/** "Plan" beside a scenario that is the session's published plan; nothing beside any other. */
export function PlanBadge({ sid, scenarioId }: { sid: string; scenarioId: string }) {
  if (usePlanScenarioId(sid) !== scenarioId) return null;
  return (
    <span className="badge plan-badge" data-testid="plan-badge" title="The session's published plan">
      Plan
    </span>
  );
}
