import { useId, useState, type FormEvent } from 'react';
import type { Column } from '../api/types.ts';
import type { Cell } from './edits.ts';
import { parseCell } from './row-where.ts';

/** A new row for the shown table: one field per column, read as the column's type; empty fields send null. */
export function AddRowForm({ table, columns, onAdd }: { table: string; columns: readonly Column[]; onAdd: (record: Record<string, Cell>) => void }) {
  const id = useId();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const record: Record<string, Cell> = {};
    for (const column of columns) {
      const parsed = parseCell(column, texts[column.name] ?? '');
      if (!parsed.ok) return setError(parsed.error);
      record[column.name] = parsed.value;
    }
    setError(null);
    setTexts({});
    onAdd(record);
  };
  return (
    <details className="add-row">
      <summary>Add a row to {table}</summary>
      <form onSubmit={submit} data-testid="add-row">
        <div className="form-grid">
          {columns.map((c) => (
            <div className="field" key={c.name}>
              <label htmlFor={`${id}-${c.name}`}>
                {c.name} <span className="muted small">{c.type}</span>
              </label>
              <input id={`${id}-${c.name}`} value={texts[c.name] ?? ''} onChange={(e) => setTexts((t) => ({ ...t, [c.name]: e.target.value }))} />
            </div>
          ))}
        </div>
        <button type="submit">Add row</button>
        {error && (
          <span className="error-text" role="alert">
            {' '}
            {error}
          </span>
        )}
      </form>
    </details>
  );
}
