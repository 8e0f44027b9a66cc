import { Link } from '@tanstack/react-router';
import { PlanBadge } from '../decisions/PlanBadge.tsx';
import { useSid } from '../session.ts';

/** A scenario's tag as a link to its page (overview, compare), with the plan's badge when it is the plan. */
export function ScenarioLink({ id, tag }: { id: string; tag: string }) {
  const sid = useSid();
  return (
    <>
      <Link to="/s/$sid/scenarios/$id" params={{ sid, id }} data-testid="scenario-link">
        {tag}
      </Link>
      <PlanBadge sid={sid} scenarioId={id} />
    </>
  );
}
