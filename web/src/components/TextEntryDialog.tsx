import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import { Modal } from './Modal.tsx';

/** What the field of a text entry dialog is drawn with: its id (the label's target), value and setter. */
export interface TextEntryField {
  id: string;
  value: string;
  setValue: (value: string) => void;
}

/** What a text entry dialog asks, how it draws its control, and what it does with the answer. */
export interface TextEntryDialogProps {
  open: boolean;
  title: string;
  /** What the dialog says above its field, if anything. */
  explanation?: ReactNode;
  label: string;
  initial: string;
  /** A fixed id for the control, where something outside finds it by id; else one of React's. */
  fieldId?: string;
  control: (field: TextEntryField) => ReactNode;
  submitLabel: string;
  error: unknown;
  busy: boolean;
  danger?: boolean;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}

/**
 * A dialog that asks for one piece of text and shows the server's refusal in place, so it stays open
 * to fix or cancel. The form mounts only while the dialog is open, so each opening starts from
 * `initial` again. What is asked for (a name, a note) draws its own control through `control`.
 */
export function TextEntryDialog(props: TextEntryDialogProps) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      {props.open && <TextEntryForm {...props} />}
    </Modal>
  );
}

function TextEntryForm(props: TextEntryDialogProps) {
  const generatedId = useId();
  const id = props.fieldId ?? generatedId;
  const [value, setValue] = useState(props.initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(value.trim());
  };
  return (
    <form onSubmit={submit}>
      {props.explanation !== undefined && <p>{props.explanation}</p>}
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        {props.control({ id, value, setValue })}
      </div>
      <ErrorNote error={props.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={props.busy || value.trim() === ''}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
