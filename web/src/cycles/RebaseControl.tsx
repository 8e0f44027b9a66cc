import { useState } from 'react';
import type { Scenario } from '../api/types.ts';
import { scenarioHref } from '../charts/scenario-href.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { RebaseDialog } from './RebaseDialog.tsx';
import { descendantCount, successorsOf } from './tree-of.ts';

/**
 * Beside a stale mark: the scenarios already rebased from this one (so a planner sees it was done,
 * also after a reload), and the button that opens the rebase.
 */
export function RebaseControl({ sid, scenario }: { sid: string; scenario: Scenario }) {
  const list = useScenarioList(sid);
  const [open, setOpen] = useState(false);
  const all = list.data ?? [];
  const successors = successorsOf(scenario.id, all);
  return (
    <>
      {successors.length > 0 && (
        <span className="small" data-testid="rebased-as">
          Rebased as{' '}
          {successors.map((s, i) => (
            <span key={s.id}>
              {i > 0 && ', '}
              <a href={scenarioHref(sid, s.id)}>{s.tag}</a>
            </span>
          ))}
          .
        </span>
      )}
      <button type="button" onClick={() => setOpen(true)} aria-label={`Rebase ${scenario.tag} onto the new data`}>
        {successors.length > 0 ? 'Rebase again…' : 'Rebase onto the new data…'}
      </button>
      {open && (
        <RebaseDialog open sid={sid} scenario={scenario} whatIfs={descendantCount(scenario.id, all)} onClose={() => setOpen(false)} onDone={() => setOpen(false)} />
      )}
    </>
  );
}
