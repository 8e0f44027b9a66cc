import type { KpiTerms } from '../api/explanations.ts';
import { formatNumber } from '../format.ts';
import { residualSentence } from './words.ts';

/**
 * One KPI and the terms that add up to it, largest first (the server's order), each with its share;
 * when the terms do not add up, the sentence under the table says by how much.
 */
export function KpiTermsTable({ kpi, unit }: { kpi: KpiTerms; unit?: string }) {
  const residual = residualSentence(kpi, unit);
  const total = Math.abs(kpi.value);
  return (
    <div className="kpi-terms" data-testid="kpi-terms" data-kpi={kpi.kpi}>
      <h4 style={{ margin: '0.5rem 0 0.25rem' }}>
        {kpi.kpi} by {kpi.by}{' '}
        <span className="muted small">
          ({formatNumber(kpi.value)}
          {unit ? ` ${unit}` : ''} in all)
        </span>
      </h4>
      {kpi.terms.length === 0 ? (
        <p className="muted small">No {kpi.by} contributes to it.</p>
      ) : (
        <table className="plain">
          <caption className="sr-only">
            {kpi.kpi} by {kpi.by}, largest first
          </caption>
          <thead>
            <tr>
              <th scope="col">{capitalise(kpi.by)}</th>
              <th scope="col">{unit ? `${kpi.kpi} (${unit})` : kpi.kpi}</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {kpi.terms.map((t) => (
              <tr key={t.term} data-testid="term">
                <th scope="row">{t.term}</th>
                <td>{formatNumber(t.value)}</td>
                <td>{total === 0 ? '—' : `${formatNumber((100 * t.value) / total)} %`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {residual && (
        <p className="alert warning small" data-testid="residual">
          {residual}
        </p>
      )}
    </div>
  );
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
