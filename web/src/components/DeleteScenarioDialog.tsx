import type { Scenario } from '../api/types.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { ConfirmDialog } from './Modal.tsx';

/** The confirm before a scenario is deleted (from its card or its page), with the delete's error in it. */
export function DeleteScenarioDialog(props: {
  open: boolean;
  scenario: Scenario;
  /** Its run is cancelled by the delete: the dialog says so. */
  active: boolean;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { scenario: s } = props;
  return (
    <ConfirmDialog
      open={props.open}
      title={`Delete scenario ${s.tag}`}
      message={
        <>
          Delete scenario <strong>{s.tag}</strong>
          {props.active ? ' (its run is cancelled)' : ''}? This cannot be undone.
          <ErrorNote error={props.error} />
        </>
      }
      confirmLabel="Delete scenario"
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}
