import { useId, type ReactNode } from 'react';

/**
 * Why the plan's Reset and Delete are disabled. The server refuses both while the scenario is the
 * published plan (409 PLAN_SCENARIO_PROTECTED); offering them enabled only to show that refusal, with
 * its code and id, reads as a fault. They stay visible, disabled, with the reason beside them and named
 * as their description, so a keyboard or screen-reader user hears why too.
 */
export const PLAN_LOCK_REASON = 'This is the published plan: withdraw it to reset or delete it.';

/** The id to give the disabled buttons' `aria-describedby`, and the note it names (null when not the plan). */
export function usePlanLock(isPlan: boolean): { describedBy: string | undefined; note: ReactNode } {
  const id = useId();
  if (!isPlan) return { describedBy: undefined, note: null };
  return {
    describedBy: id,
    note: (
      <p id={id} className="small muted plan-lock" data-testid="plan-lock">
        {PLAN_LOCK_REASON}
      </p>
    ),
  };
}
