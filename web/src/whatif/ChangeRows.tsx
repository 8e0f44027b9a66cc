import { useId, useState, type FormEvent } from 'react';
import type { Column } from '../api/types.ts';
import type { Cell } from './edits.ts';
import { isNumeric, parseCell } from './row-where.ts';
import { rowCount } from './edit-sentence.ts';

export type RowsChange = { column: string; set: Cell } | { column: string; scale: number };

/**
 * One change for every row the filter shows: set a column to a value, or scale a numeric column by a
 * percentage (+10 % multiplies by 1.10). The percentage is turned into the factor here, rounded to
 * what was typed, so "+10" never becomes 1.1000000000000001.
 */
export function ChangeRows({ columns, matching, onApply, disabled }: {
  columns: readonly Column[];
  matching: number;
  onApply: (change: RowsChange) => void;
  disabled: boolean;
}) {
  const id = useId();
  const [column, setColumn] = useState('');
  const [mode, setMode] = useState<'scale' | 'set'>('scale');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chosen = columns.find((c) => c.name === column) ?? columns.find(isNumeric) ?? columns[0];
  const canScale = chosen !== undefined && isNumeric(chosen);
  const how = canScale ? mode : 'set';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    if (how === 'scale') {
      const percent = Number(text.trim().replace(/%$/, ''));
      if (text.trim() === '' || !Number.isFinite(percent)) return setError('enter a percentage, e.g. 10 or −5');
      if (percent <= -100) return setError('a scale of −100 % or less would zero or flip the values: set them instead');
      setError(null);
      onApply({ column: chosen.name, scale: factorOf(percent) });
    } else {
      const parsed = parseCell(chosen, text);
      if (!parsed.ok) return setError(parsed.error);
      setError(null);
      onApply({ column: chosen.name, set: parsed.value });
    }
    setText('');
  };

  return (
    <form className="change-rows row" onSubmit={submit} aria-labelledby={`${id}-title`} data-testid="change-rows">
      <span id={`${id}-title`} className="change-title">
        Change the {rowCount(matching)} shown:
      </span>
      <label className="sr-only" htmlFor={`${id}-column`}>
        Column to change
      </label>
      <select id={`${id}-column`} value={chosen?.name ?? ''} onChange={(e) => setColumn(e.target.value)}>
        {columns.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
      <label className="sr-only" htmlFor={`${id}-mode`}>
        How to change it
      </label>
      <select id={`${id}-mode`} value={how} onChange={(e) => setMode(e.target.value as 'scale' | 'set')}>
        {canScale && <option value="scale">scale by %</option>}
        <option value="set">set to</option>
      </select>
      <label className="sr-only" htmlFor={`${id}-value`}>
        {how === 'scale' ? 'Percentage' : 'New value'}
      </label>
      <input
        id={`${id}-value`}
        className="short-text"
        value={text}
        inputMode={how === 'scale' ? 'decimal' : undefined}
        placeholder={how === 'scale' ? '+10' : 'value'}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <button type="submit" disabled={disabled || matching === 0}>
        Apply
      </button>
      {error && (
        <span id={`${id}-error`} className="error-text" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** +10 → 1.1, −5 → 0.95, 12.5 → 1.125: computed in hundredths of a percent so binary fractions do not leak in. */
export function factorOf(percent: number): number {
  return Math.round((100 + percent) * 1e6) / 1e8;
}
