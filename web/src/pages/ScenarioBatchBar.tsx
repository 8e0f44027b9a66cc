import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { Status } from '../api/types.ts';
import { BatchActions } from '../experiments/BatchActions.tsx';

/**
 * Batch actions of the scenarios page: on the ticked cards, or on every scenario matching the page's
 * filter (status and tag text, which the server's `{ filter: { status, q } }` matches the same way).
 */
export function ScenarioBatchBar(props: { sid: string; selected: ReadonlySet<string>; matching: number; status: Status | ''; query: string; onClear: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const [allMatching, setAllMatching] = useState(false);
  const useAll = allMatching || props.selected.size === 0;
  const filter = { ...(props.status ? { status: props.status } : {}), ...(props.query ? { q: props.query } : {}) };
  const filtered = props.status !== '' || props.query !== '';
  return (
    <div className="card" style={{ marginBottom: '0.75rem' }} aria-label="Act on many scenarios" role="group">
      <div className="row small">
        <label className="check">
          <input type="radio" name="batch-target" checked={!useAll} disabled={props.selected.size === 0} onChange={() => setAllMatching(false)} />
          the {props.selected.size} ticked
        </label>
        <label className="check">
          <input type="radio" name="batch-target" checked={useAll} onChange={() => setAllMatching(true)} />
          all {props.matching} {filtered ? 'matching the filter' : 'of the session'}
        </label>
        {props.selected.size > 0 && (
          <button type="button" className="link" onClick={props.onClear}>
            Untick all
          </button>
        )}
      </div>
      <BatchActions
        count={useAll ? props.matching : props.selected.size}
        what={useAll ? (filtered ? 'all matching the filter' : 'every scenario of the session') : 'the ticked ones'}
        act={(action) => api.batchScenarios(props.sid, action, useAll ? { filter } : { ids: [...props.selected] })}
        onDone={(action) => {
          if (action === 'delete') props.onClear();
          void client.invalidateQueries({ queryKey: keys.scenarios(props.sid) });
        }}
      />
    </div>
  );
}
