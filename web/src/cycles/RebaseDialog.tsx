import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { rebaseConflictsOf, rebaseScenario } from '../api/cycles.ts';
import { keys } from '../api/keys.ts';
import type { Scenario } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Modal } from '../components/Modal.tsx';
import { ConflictList } from './ConflictList.tsx';

/**
 * Rebase a scenario onto the newest version of its data: its edits (and its ancestors') re-applied,
 * the same parameters, a successor made; with its what-ifs (`tree`) the whole branch at once. Edits that
 * no longer fit are listed in words, nothing made, and the planner may rebase without them.
 */
export function RebaseDialog({ open, sid, scenario, whatIfs, onClose, onDone }: {
  open: boolean;
  sid: string;
  scenario: Pick<Scenario, 'id' | 'tag'>;
  /** How many what-ifs branch from it (a tree rebase takes them along). */
  whatIfs: number;
  onClose: () => void;
  onDone: (successors: Scenario[]) => void;
}) {
  const api = useApi();
  const client = useQueryClient();
  const [tree, setTree] = useState(whatIfs > 0);
  const [run, setRun] = useState(true);
  const rebase = useMutation({
    mutationFn: (skip: boolean) => rebaseScenario(api, sid, scenario.id, { tree: tree && whatIfs > 0, run, on_conflict: skip ? 'skip' : 'fail' }),
    onSuccess: (made) => {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.datasets(sid) });
      onDone(made);
    },
  });
  const conflicts = rebaseConflictsOf(rebase.error);
  // A changed choice is a new request: the last answer's conflicts no longer describe it.
  const choose = (change: () => void) => {
    change();
    rebase.reset();
  };
  const close = () => {
    rebase.reset();
    onClose();
  };
  return (
    <Modal open={open} title="Rebase onto the new data" onClose={close}>
      <p>
        Makes a successor of <strong>{scenario.tag}</strong> on the newest data: its data edits applied again, the same algorithm and parameters.{' '}
        {scenario.tag} stays as it was.
      </p>
      {whatIfs > 0 && (
        <fieldset>
          <legend>What to rebase</legend>
          <label className="check">
            <input type="radio" name="rebase-scope" checked={!tree} onChange={() => choose(() => setTree(false))} />
            Only {scenario.tag}
          </label>
          <label className="check">
            <input type="radio" name="rebase-scope" checked={tree} onChange={() => choose(() => setTree(true))} />
            {scenario.tag} and its {whatIfs === 1 ? 'what-if' : `${whatIfs} what-ifs`}
          </label>
        </fieldset>
      )}
      <label className="check">
        <input type="checkbox" checked={run} onChange={(e) => choose(() => setRun(e.target.checked))} />
        Run the new {tree && whatIfs > 0 ? 'scenarios' : 'scenario'} at once
      </label>
      {conflicts.length > 0 ? (
        <div className="alert warning" role="alert">
          <p style={{ marginTop: 0 }}>
            {conflicts.length === 1 ? 'One edit does' : `${conflicts.length} edits do`} not fit the new data, so nothing was made:
          </p>
          <ConflictList sid={sid} conflicts={conflicts} />
          <p className="small" style={{ marginBottom: 0 }}>
            Rebase without {conflicts.length === 1 ? 'it' : 'them'}: the new data leaves {conflicts.length === 1 ? 'this edit' : 'these edits'} out and records what was skipped.
          </p>
        </div>
      ) : (
        <ErrorNote error={rebase.error} />
      )}
      <div className="dialog-actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        {conflicts.length > 0 ? (
          <button type="button" className="primary" onClick={() => rebase.mutate(true)} disabled={rebase.isPending}>
            Rebase without {conflicts.length === 1 ? 'this edit' : 'these edits'}
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => rebase.mutate(false)} disabled={rebase.isPending}>
            {rebase.isPending ? 'Rebasing…' : 'Rebase'}
          </button>
        )}
      </div>
    </Modal>
  );
}
