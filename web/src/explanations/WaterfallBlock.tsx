import type { Waterfall } from '../api/explanations.ts';
import type { BetterWhen } from '../api/types.ts';
import { formatDelta, formatNumber } from '../format.ts';
import { WaterfallChart } from './WaterfallChart.tsx';
import { causeSentence, changeSentence, waterfallResidualSentence } from './words.ts';

/**
 * One KPI's move from the baseline to one scenario, told three ways: a sentence (how much it moved,
 * and what moved it most), the waterfall, and every term's before and after (folded). Compare and a
 * saved report draw it alike.
 */
export function WaterfallBlock({ waterfall: w, fromTag, toTag, betterWhen, unit }: { waterfall: Waterfall; fromTag: string; toTag: string; betterWhen?: BetterWhen; unit?: string }) {
  const cause = causeSentence(w, unit);
  const residual = waterfallResidualSentence(w, unit);
  return (
    <div className="waterfall-block" data-testid="waterfall-block" data-kpi={w.kpi} data-scenario={toTag}>
      <p style={{ marginBottom: '0.25rem' }} data-testid="change-sentence">
        <strong>{changeSentence(w, fromTag, toTag, unit)}</strong> {cause}
      </p>
      <WaterfallChart waterfall={w} fromLabel={fromTag} toLabel={toTag} betterWhen={betterWhen} unit={unit} />
      {residual && (
        <p className="alert warning small" data-testid="waterfall-residual">
          {residual}
        </p>
      )}
      {w.terms.length > 0 && (
        <details>
          <summary className="small">
            Every {w.by}: {fromTag}, {toTag} and the change
          </summary>
          <table className="plain">
            <thead>
              <tr>
                <th scope="col">{w.by}</th>
                <th scope="col">{fromTag}</th>
                <th scope="col">{toTag}</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {w.terms.map((t) => (
                <tr key={t.term}>
                  <th scope="row">{t.term}</th>
                  <td>{formatNumber(t.from)}</td>
                  <td>{formatNumber(t.to)}</td>
                  <td>{formatDelta(t.delta)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
