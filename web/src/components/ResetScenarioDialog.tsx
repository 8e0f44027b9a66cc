import type { Scenario } from '../api/types.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { ConfirmDialog } from './Modal.tsx';

/**
 * Whether a reset throws something away that is worth asking about: a COMPLETE run's result and KPIs
 * are gone after it, while a FAILED run has nothing to lose (its reset is the way to try again).
 */
export const resetNeedsConfirm = (s: Pick<Scenario, 'status'>): boolean => s.status === 'COMPLETE';

/** The confirm before a complete scenario is reset (from its card or its page), as the batch Reset asks. */
export function ResetScenarioDialog(props: { open: boolean; scenario: Scenario; busy: boolean; error: unknown; onConfirm: () => void; onCancel: () => void }) {
  const { scenario: s } = props;
  return (
    <ConfirmDialog
      open={props.open}
      title={`Reset scenario ${s.tag}?`}
      message={
        <>
          Reset <strong>{s.tag}</strong> to CREATED? Its result and KPIs are deleted; running it again computes new ones.
          <ErrorNote error={props.error} />
        </>
      }
      confirmLabel="Reset scenario"
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}
