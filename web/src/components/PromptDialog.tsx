import { TextEntryDialog, type TextEntryDialogProps } from './TextEntryDialog.tsx';

/** Asks for one name (rename, copy, derive) and shows the server's refusal in place. */
export function PromptDialog(props: Omit<TextEntryDialogProps, 'control' | 'fieldId' | 'explanation' | 'danger'>) {
  return (
    <TextEntryDialog
      {...props}
      // The browser tests fill the name by this id.
      fieldId="prompt-input"
      control={({ id, value, setValue }) => (
        <input id={id} value={value} onChange={(e) => setValue(e.target.value)} required maxLength={200} />
      )}
    />
  );
}
