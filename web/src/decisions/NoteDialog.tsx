import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Modal } from '../components/Modal.tsx';

/** The note the server accepts with a publication or a withdrawal (docs/api/plans-and-reports.md). */
export const NOTE_MAX = 2000;

/**
 * Asks for the note a decision needs (why this plan, why withdraw it), says what the decision does,
 * and shows the server's refusal in place, so the dialog stays open to fix or cancel.
 */
export function NoteDialog(props: {
  open: boolean;
  title: string;
  explanation: ReactNode;
  label: string;
  submitLabel: string;
  error: unknown;
  busy: boolean;
  danger?: boolean;
  onSubmit: (note: string) => void;
  onCancel: () => void;
}) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      {props.open && <NoteForm {...props} />}
    </Modal>
  );
}

function NoteForm(props: Parameters<typeof NoteDialog>[0]) {
  const id = useId();
  const [note, setNote] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(note.trim());
  };
  return (
    <form onSubmit={submit}>
      <p>{props.explanation}</p>
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <textarea id={id} value={note} onChange={(e) => setNote(e.target.value)} required maxLength={NOTE_MAX} rows={4} />
      </div>
      <ErrorNote error={props.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={props.busy || note.trim() === ''}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
