import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { publishPlan, withdrawPlan } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import type { Scenario } from '../api/types.ts';
import { useCurrentPlan } from './use-plan.ts';
import { NoteDialog } from './NoteDialog.tsx';

/**
 * The scenario page's decision: "Publish as plan…" for a COMPLETE scenario that is not the plan,
 * "Withdraw plan…" for the one that is. Each asks for a note; a refusal (409 and its detail) shows in
 * the dialog. Another status shows nothing: the server would refuse it.
 */
export function PublishControl({ sid, scenario: s }: { sid: string; scenario: Scenario }) {
  const api = useApi();
  const client = useQueryClient();
  const { plan } = useCurrentPlan(sid);
  const isPlan = plan?.scenario_id === s.id;
  const [open, setOpen] = useState(false);
  const decide = useMutation({
    mutationFn: (note: string) => (isPlan ? withdrawPlan(api, sid, note) : publishPlan(api, sid, s.id, note)),
    onSuccess: () => {
      setOpen(false);
      void client.invalidateQueries({ queryKey: keys.plan(sid) });
      void client.invalidateQueries({ queryKey: keys.audit(sid) });
    },
  });
  if (!isPlan && s.status !== 'COMPLETE') return null;
  const close = () => {
    setOpen(false);
    decide.reset();
  };
  return (
    <>
      <button type="button" className={isPlan ? undefined : 'primary'} onClick={() => setOpen(true)}>
        {isPlan ? 'Withdraw plan…' : 'Publish as plan…'}
      </button>
      {isPlan ? (
        <NoteDialog
          open={open}
          title="Withdraw the plan"
          explanation={
            <>
              <strong>{s.tag}</strong> stops being the session&apos;s plan; it and its dataset can be changed and deleted again.
            </>
          }
          label="Why withdraw it"
          submitLabel="Withdraw"
          danger
          error={decide.error}
          busy={decide.isPending}
          onSubmit={(note) => decide.mutate(note)}
          onCancel={close}
        />
      ) : (
        <NoteDialog
          open={open}
          title="Publish as plan"
          explanation={
            <>
              <strong>{s.tag}</strong> becomes the session&apos;s plan
              {plan ? <>, superseding <strong>{plan.tag}</strong></> : null}. While it is the plan it cannot be reset, rerun or deleted, nor its dataset
              deleted; new data may arrive under the dataset&apos;s name, and the plan keeps the version it was computed on.
            </>
          }
          label="Why this one"
          submitLabel="Publish"
          error={decide.error}
          busy={decide.isPending}
          onSubmit={(note) => decide.mutate(note)}
          onCancel={close}
        />
      )}
    </>
  );
}
