/**
 * A labelled one-line text field of a form with the problem found in it, if any: marked invalid, the
 * message announced under it and tied to the input (`<id>-error`), so a screen reader reads it there.
 */
export function TextField(props: { id: string; label: string; value: string; onChange: (value: string) => void; maxLength?: number; error?: string }) {
  const errorId = `${props.id}-error`;
  const invalid = props.error ? true : undefined;
  return (
    <div className="field" data-invalid={invalid}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        maxLength={props.maxLength}
        aria-invalid={invalid}
        aria-describedby={props.error ? errorId : undefined}
      />
      {props.error && (
        <span id={errorId} className="error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}
