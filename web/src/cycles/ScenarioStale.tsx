import type { Scenario } from '../api/types.ts';
import { usePlanScenarioId } from '../decisions/use-plan.ts';
import { RebaseControl } from './RebaseControl.tsx';
import { StaleNote } from './StaleNote.tsx';

/**
 * A scenario's stale mark in words with its action: a Rebase onto the new data, or for the published
 * plan the way to its Re-plan (which keeps the link to the plan), on the plan card of the session's home.
 * Nothing, and nothing asked of the server, for a scenario on current data.
 */
export function ScenarioStale({ sid, scenario }: { sid: string; scenario: Scenario }) {
  return scenario.stale ? <MarkedStale sid={sid} scenario={scenario} mark={scenario.stale} /> : null;
}

function MarkedStale({ sid, scenario: s, mark }: { sid: string; scenario: Scenario; mark: NonNullable<Scenario['stale']> }) {
  const isPlan = usePlanScenarioId(sid) === s.id;
  return (
    <StaleNote mark={mark} subject={{ kind: 'scenario', dataset: s.input_data_id, computed: s.status === 'COMPLETE' }}>
      {isPlan ? (
        // A plain hash link (the app routes by the URL hash): the card also renders outside a router.
        <a className="button" href={`#/s/${encodeURIComponent(sid)}/`}>
          Re-plan from the plan card
        </a>
      ) : (
        <div className="row">
          <RebaseControl sid={sid} scenario={s} />
        </div>
      )}
    </StaleNote>
  );
}
