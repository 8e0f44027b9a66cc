import type { ScenarioAction } from '../api/scenario-action.ts';
import type { Scenario } from '../api/types.ts';
import { DeleteScenarioDialog } from './DeleteScenarioDialog.tsx';
import { ResetScenarioDialog } from './ResetScenarioDialog.tsx';

/** The scenario action that waits for a yes in a dialog, or none. */
export type Confirming = 'reset' | 'delete' | null;

/** What of the action's mutation the dialogs use: send it, clear its error, show it pending or failed. */
export interface ActionMutation {
  mutate: (action: ScenarioAction) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
}

/**
 * The confirmations before a scenario's Reset and Delete (its card and its page ask the same way): one
 * dialog at a time, the action's error inside it; dismissing clears the error for the next try.
 */
export function ScenarioConfirmations({ scenario, active, confirming, act, onDismiss }: {
  scenario: Scenario;
  /** Its run is under way: the delete dialog says the run is cancelled. */
  active: boolean;
  confirming: Confirming;
  act: ActionMutation;
  onDismiss: () => void;
}) {
  const dismiss = () => {
    onDismiss();
    act.reset();
  };
  return (
    <>
      <ResetScenarioDialog open={confirming === 'reset'} scenario={scenario} busy={act.isPending} error={act.error} onConfirm={() => act.mutate('reset')} onCancel={dismiss} />
      <DeleteScenarioDialog
        open={confirming === 'delete'}
        scenario={scenario}
        active={active}
        busy={act.isPending}
        error={act.error}
        onConfirm={() => act.mutate('delete')}
        onCancel={dismiss}
      />
    </>
  );
}
