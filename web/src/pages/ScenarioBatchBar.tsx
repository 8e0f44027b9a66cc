import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { Status } from '../api/types.ts';
import { BatchActions } from '../experiments/BatchActions.tsx';

/** Which scenarios a batch acts on: the ticked cards, or (chosen explicitly) every one the filter matches. */
type BatchTargetChoice = 'ticked' | 'all';

/**
 * Batch actions of the scenarios page: on the ticked cards, or on every scenario matching the page's
 * filter (status and tag text, which the server's `{ filter: { status, q } }` matches the same way).
 * Nothing ticked means nothing to act on: acting on all (with no filter, the whole session) must be
 * chosen, and is then confirmed with its count like every batch.
 */
export function ScenarioBatchBar(props: { sid: string; selected: ReadonlySet<string>; matching: number; status: Status | ''; query: string; onClear: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const [target, setTarget] = useState<BatchTargetChoice>('ticked');
  const useAll = target === 'all';
  const filter = { ...(props.status ? { status: props.status } : {}), ...(props.query ? { q: props.query } : {}) };
  const filtered = props.status !== '' || props.query !== '';
  const allLabel = `all ${props.matching} ${filtered ? 'matching the filter' : 'of the session'}`;
  return (
    <div className="card" style={{ marginBottom: '0.75rem' }} aria-label="Act on many scenarios" role="group">
      <div className="row small">
        <label className="check">
          <input type="radio" name="batch-target" checked={!useAll} onChange={() => setTarget('ticked')} />
          the {props.selected.size} ticked
        </label>
        <label className="check">
          <input type="radio" name="batch-target" checked={useAll} onChange={() => setTarget('all')} />
          {allLabel}
        </label>
        {props.selected.size > 0 && (
          <button type="button" className="link" onClick={props.onClear}>
            Untick all
          </button>
        )}
        {!useAll && props.selected.size === 0 && (
          <span className="muted" data-testid="batch-hint">
            Nothing ticked: tick the scenarios to act on, or choose all of them above.
          </span>
        )}
      </div>
      <BatchActions
        count={useAll ? props.matching : props.selected.size}
        what={useAll ? (filtered ? 'all matching the filter' : 'every scenario of the session') : 'the ticked ones'}
        act={(action) => api.batchScenarios(props.sid, action, useAll ? { filter } : { ids: [...props.selected] })}
        onDone={(action) => {
          if (action === 'delete') props.onClear();
          // An act on all is a choice for one act: the next starts from the ticked ones again.
          setTarget('ticked');
          void client.invalidateQueries({ queryKey: keys.scenarios(props.sid) });
        }}
      />
    </div>
  );
}
