import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { BatchAction } from '../api/client.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';

const ACTIONS: readonly BatchAction[] = ['run', 'cancel', 'reset', 'delete'];
const VERB = { run: 'Run', cancel: 'Cancel', reset: 'Reset', delete: 'Delete' } as const;

/** What the server answers for a batch: how many changed and how many it skipped (their state forbade it). */
export interface BatchOutcome {
  changed: number;
  skipped: number;
}

/**
 * Run, cancel, reset or delete many scenarios at once, after a confirm that states how many. Each
 * scenario follows its own state rules on the server; the answer says how many changed and were skipped.
 */
export function BatchActions({ count, what, act, onDone }: { count: number; what: string; act: (action: BatchAction) => Promise<BatchOutcome>; onDone?: (action: BatchAction) => void }) {
  const [asking, setAsking] = useState<BatchAction | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: act,
    onSuccess: (answer, action) => {
      setAsking(null);
      setOutcome(`${VERB[action]}: ${answer.changed} changed, ${answer.skipped} skipped (their status does not allow it).`);
      onDone?.(action);
    },
  });
  const noun = `${count} scenario${count === 1 ? '' : 's'}`;
  return (
    <div data-testid="batch-actions">
      <div className="row">
        {ACTIONS.map((a) => (
          <button key={a} type="button" className={a === 'delete' ? 'danger' : undefined} disabled={count === 0 || mutation.isPending} onClick={() => setAsking(a)}>
            {VERB[a]} {count > 0 ? count : ''}
          </button>
        ))}
      </div>
      <div aria-live="polite" className="small">
        {outcome}
      </div>
      <ErrorNote error={mutation.error} />
      <ConfirmDialog
        open={asking !== null}
        title={asking ? `${VERB[asking]} ${noun}?` : 'Confirm'}
        message={
          <p>
            {asking ? VERB[asking] : ''} {noun} ({what})?
            {asking === 'delete' ? ' Deleting cannot be undone; queued and running ones are stopped.' : ' Those whose status does not allow it are skipped.'}
          </p>
        }
        confirmLabel={asking ? `${VERB[asking]} ${noun}` : 'Confirm'}
        busy={mutation.isPending}
        onConfirm={() => asking && mutation.mutate(asking)}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}
