import { useState, type FormEvent } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import { Modal } from './Modal.tsx';

/** Asks for one name (rename, copy, derive) and shows the server's refusal in place. */
export function PromptDialog(props: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  error: unknown;
  busy: boolean;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      {props.open && <PromptForm {...props} />}
    </Modal>
  );
}

function PromptForm(props: Parameters<typeof PromptDialog>[0]) {
  const [value, setValue] = useState(props.initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(value.trim());
  };
  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="prompt-input">{props.label}</label>
        <input id="prompt-input" value={value} onChange={(e) => setValue(e.target.value)} required maxLength={200} />
      </div>
      <ErrorNote error={props.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={props.busy || value.trim() === ''}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
