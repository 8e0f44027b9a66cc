import { useId } from 'react';
import type { Column } from '../api/types.ts';
import { OPERATORS, type FilterCondition } from './filter.ts';

/**
 * Which rows the grid shows: conditions on columns, all of which hold ("zone is A", "x is between 1 and
 * 5"). The change below the grid applies to exactly these rows.
 */
export function FilterPanel({ columns, conditions, onChange, error }: {
  columns: readonly Column[];
  conditions: readonly FilterCondition[];
  onChange: (next: FilterCondition[]) => void;
  error: string | null;
}) {
  const id = useId();
  const update = (index: number, patch: Partial<FilterCondition>) => onChange(conditions.map((c, i) => (i === index ? { ...c, ...patch } : c)));
  return (
    <fieldset className="filter-panel" data-testid="filter">
      <legend>Filter rows</legend>
      {conditions.length === 0 && <p className="muted small">Every row is shown. Add a condition to pick the rows a change applies to.</p>}
      {conditions.map((condition, index) => {
        const at = `${id}-${index}`;
        return (
          <div key={index} className="row filter-condition">
            <label className="sr-only" htmlFor={`${at}-column`}>
              Column of condition {index + 1}
            </label>
            <select id={`${at}-column`} value={condition.column} onChange={(e) => update(index, { column: e.target.value })}>
              {columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
            <label className="sr-only" htmlFor={`${at}-op`}>
              How condition {index + 1} matches
            </label>
            <select id={`${at}-op`} value={condition.op} onChange={(e) => update(index, { op: e.target.value as FilterCondition['op'] })}>
              {OPERATORS.map((o) => (
                <option key={o.op} value={o.op}>
                  {o.label}
                </option>
              ))}
            </select>
            <label className="sr-only" htmlFor={`${at}-value`}>
              {condition.op === 'between' ? `Lowest value of condition ${index + 1}` : `Value of condition ${index + 1}`}
            </label>
            <input
              id={`${at}-value`}
              className="short-text"
              value={condition.value}
              placeholder={condition.op === 'one-of' ? 'A, B' : condition.op === 'between' ? 'from' : 'value'}
              onChange={(e) => update(index, { value: e.target.value })}
            />
            {condition.op === 'between' && (
              <>
                <label className="sr-only" htmlFor={`${at}-to`}>
                  Highest value of condition {index + 1}
                </label>
                <input id={`${at}-to`} className="short-text" value={condition.to} placeholder="to" onChange={(e) => update(index, { to: e.target.value })} />
              </>
            )}
            <button type="button" className="link" onClick={() => onChange(conditions.filter((_, i) => i !== index))} aria-label={`Remove condition ${index + 1}`}>
              Remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => onChange([...conditions, { column: columns[0]?.name ?? '', op: 'is', value: '', to: '' }])}
        disabled={columns.length === 0}
      >
        Add condition
      </button>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
