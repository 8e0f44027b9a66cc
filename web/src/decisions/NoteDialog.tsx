import type { ReactNode } from 'react';
import { TextEntryDialog, type TextEntryDialogProps } from '../components/TextEntryDialog.tsx';

/** The note the server accepts with a publication or a withdrawal (docs/api/plans-and-reports.md). */
export const NOTE_MAX = 2000;

/**
 * Asks for the note a decision needs (why this plan, why withdraw it), says what the decision does,
 * and shows the server's refusal in place, so the dialog stays open to fix or cancel. A note starts empty.
 */
export function NoteDialog(props: Omit<TextEntryDialogProps, 'control' | 'fieldId' | 'initial'> & { explanation: ReactNode }) {
  return (
    <TextEntryDialog
      {...props}
      initial=""
      control={({ id, value, setValue }) => (
        <textarea id={id} value={value} onChange={(e) => setValue(e.target.value)} required maxLength={NOTE_MAX} rows={4} />
      )}
    />
  );
}
