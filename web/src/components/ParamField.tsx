import type { ReactNode } from 'react';
import type { ParameterDescriptor } from '../api/types.ts';
import type { FormValue } from '../params/form-values.ts';

interface Props {
  descriptor: ParameterDescriptor;
  value: FormValue;
  error?: string;
  idPrefix: string;
  onChange: (value: FormValue) => void;
}

/** One form control for a parameter descriptor: all eight kinds, with bounds, choices and default shown. */
export function ParamField({ descriptor: d, value, error, idPrefix, onChange }: Props) {
  const id = `${idPrefix}-${d.name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : ''].filter(Boolean).join(' ');
  const hint = hintOf(d);
  const invalid = error ? true : undefined;
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': invalid, name: d.name };
  // The hint, and the server's message for this field, under any control.
  const notes = (
    <>
      <span id={hintId} className="hint">{hint}</span>
      {error && (
        <span id={errorId} className="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
  // A control of several inputs is a fieldset named by its legend (a single input is named by its label).
  const group = (controls: ReactNode) => (
    <fieldset className="field" data-invalid={invalid} aria-describedby={describedBy}>
      <legend>
        {labelOf(d)}
        {optionalNote(d)}
      </legend>
      {controls}
      {notes}
    </fieldset>
  );

  let control;
  switch (d.type) {
    case 'integer':
    case 'float':
      control = (
        <input
          {...common}
          type="number"
          inputMode={d.type === 'integer' ? 'numeric' : 'decimal'}
          step={d.type === 'integer' ? 1 : 'any'}
          min={d.min}
          max={d.max}
          value={value as string}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'boolean':
      control = <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
      break;
    case 'enum':
      control = (
        <select {...common} value={value as string} onChange={(e) => onChange(e.target.value)}>
          {!d.required && <option value="">(none)</option>}
          {(d.choices ?? []).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      );
      break;
    case 'multi_enum': {
      const selected = new Set(value as string[]);
      return group(
        <div>
          {(d.choices ?? []).map((c) => (
            <label key={c} className="check">
              <input
                type="checkbox"
                name={d.name}
                checked={selected.has(c)}
                onChange={(e) => onChange((d.choices ?? []).filter((x) => (x === c ? e.target.checked : selected.has(x))))}
              />
              {c}
            </label>
          ))}
        </div>
      );
    }
    case 'time':
      control = <input {...common} type="text" inputMode="numeric" placeholder="HH:MM or HH:MM:SS" value={value as string} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'interval': {
      const [start, end] = value as [string, string];
      return group(
        <div className="row">
          <label className="check" htmlFor={`${id}-start`}>from</label>
          <input id={`${id}-start`} type="text" placeholder="2026-01-01 or 2026-01-01T08:00:00Z" value={start} onChange={(e) => onChange([e.target.value, end])} />
          <label className="check" htmlFor={`${id}-end`}>to</label>
          <input id={`${id}-end`} type="text" placeholder="2026-01-31" value={end} onChange={(e) => onChange([start, e.target.value])} />
        </div>
      );
    }
    default:
      control = <input {...common} type="text" value={value as string} onChange={(e) => onChange(e.target.value)} />;
  }

  return (
    <div className="field" data-invalid={invalid}>
      <label htmlFor={id}>
        {labelOf(d)}
        {optionalNote(d)}
      </label>
      {control}
      {notes}
    </div>
  );
}

function hintOf(d: ParameterDescriptor): string {
  const parts: string[] = [d.type.replace('_', '-')];
  // Only numbers have bounds.
  const { min, max } = d.type === 'integer' || d.type === 'float' ? d : {};
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
  else if (min !== undefined) parts.push(`≥ ${min}`);
  else if (max !== undefined) parts.push(`≤ ${max}`);
  if (d.default !== undefined) parts.push(`default ${JSON.stringify(d.default)}`);
  const head = parts.join(', ');
  return d.description ? `${d.description} (${head})` : head;
}

/** The descriptor's label (the server humanises names without one); the name from an older server. */
export const labelOf = (d: ParameterDescriptor) => d.label ?? d.name;

/** "(optional)" only where leaving the field alone sends nothing: not required and no default to fall back on. */
const optionalNote = (d: ParameterDescriptor) => (!d.required && d.default === undefined ? ' (optional)' : '');
