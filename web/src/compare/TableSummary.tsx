import { formatParam } from '../format.ts';
import { rowCount } from '../whatif/edit-sentence.ts';
import type { TableDiff } from './inputs.ts';

/**
 * One table of two datasets compared row by row, in words: only on one side, columns that differ, or
 * rows added, removed and changed (matched by the key) with up to 20 examples of each. Compare's inputs,
 * its result tables and the Data page's versions all read a table comparison this way.
 */
export function TableSummary({ diff: t, fromName = 'the baseline’s data', toName = 'this data' }: {
  diff: TableDiff;
  /** How the two sides read in "only in …" (Compare: the baseline's data and this one's). */
  fromName?: string;
  toName?: string;
}) {
  if (t.status === 'only_in_from') return <><strong>{t.table}</strong>: only in {fromName} ({rowCount(t.rows ?? 0)})</>;
  if (t.status === 'only_in_to') return <><strong>{t.table}</strong>: only in {toName} ({rowCount(t.rows ?? 0)})</>;
  if (t.status === 'columns_differ') {
    const parts = [t.columns_added?.length ? `columns added: ${t.columns_added.join(', ')}` : '', t.columns_removed?.length ? `columns removed: ${t.columns_removed.join(', ')}` : ''];
    return <><strong>{t.table}</strong>: {parts.filter(Boolean).join('; ')}</>;
  }
  const examples = [
    ...(t.added ?? []).map((row) => `added: ${rowText(row)}`),
    ...(t.removed ?? []).map((row) => `removed: ${rowText(row)}`),
    ...(t.changed ?? []).map((c) => `changed: ${rowText(c.key)}: ${Object.entries(c.changes).map(([k, v]) => `${k} ${formatParam(v.from)} → ${formatParam(v.to)}`).join(', ')}`),
  ];
  return (
    <>
      <strong>{t.table}</strong>: {rowCount(t.rows_added ?? 0)} added, {rowCount(t.rows_removed ?? 0)} removed, {rowCount(t.rows_changed ?? 0)} changed
      {t.key && t.key.length > 0 && <span className="muted small"> (rows matched by {t.key.join(', ')})</span>}
      {examples.length > 0 && (
        <details>
          <summary>Examples ({examples.length})</summary>
          <ul className="small">
            {examples.map((text, i) => (
              <li key={i}>{text}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

const rowText = (row: Record<string, unknown>) => Object.entries(row).map(([k, v]) => `${k} ${formatParam(v)}`).join(', ');
