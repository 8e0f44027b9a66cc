import type { ReactNode } from 'react';
import type { RowRef, Violation } from '../api/explanations.ts';
import { formatNumber } from '../format.ts';

/**
 * One broken rule: how hard, which rule and by how much, the algorithm's sentence, and the data rows it
 * concerns. `row` draws a row reference (a link on the scenario page, text in a report); `action`
 * goes after (What if…).
 */
export function ViolationItem({ violation: v, row, action }: { violation: Violation; row: (ref: RowRef) => ReactNode; action?: ReactNode }) {
  return (
    <li className="violation" data-testid="violation" data-severity={v.severity} style={{ borderTop: '1px solid var(--border)', padding: '0.5rem 0' }}>
      <div className="row">
        <span className={v.severity === 'hard' ? 'badge hard-badge' : 'badge'} data-status={v.severity === 'hard' ? 'FAILED' : 'QUEUED'}>
          {v.severity === 'hard' ? 'must be fixed' : 'allowed at a cost'}
        </span>
        <strong>{v.constraint}</strong>
        <span className="muted small">by {formatNumber(v.amount)}</span>
        <span className="spacer" />
        {action}
      </div>
      <p style={{ margin: '0.25rem 0' }}>{v.message}</p>
      {v.rows.length > 0 && (
        <p className="small" style={{ margin: 0 }}>
          Rows:{' '}
          {v.rows.map((r, i) => (
            <span key={`${r.table}\u0000${String(r.key)}`}>
              {i > 0 && ', '}
              {row(r)}
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

/** A row reference in words: "sku_data SKU-000017". */
export const rowText = (r: RowRef) => `${r.table} ${String(r.key)}`;
