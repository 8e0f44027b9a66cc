import { formatNumber, formatParam } from '../format.ts';
import type { ScaleEffect } from './apply-edits.ts';

/**
 * What a scale will store, under its sentence: a few values before → after and the column's total,
 * and a warning where an integer column's rounding (row by row, as the server stores it) moved values
 * off the exact products: capacities of 1 scaled by 0.5 stay 1, so a total of 100 becomes 80, not 50.
 */
export function ScaleEffects({ effects }: { effects: readonly ScaleEffect[] }) {
  return effects.map((effect) => (
    <div key={effect.column} className="small scale-effect" data-testid="scale-effect" data-column={effect.column}>
      <span className="muted">
        {effect.column}: {effect.samples.map((s) => `${formatParam(s.before)} → ${formatParam(s.after)}`).join(', ')}
        {' · '}total {formatNumber(effect.total.before)} → {formatNumber(effect.total.after)}
      </span>
      {effect.rounded > 0 && effect.firstRounded && (
        <div className="warn-text" role="note" data-testid="rounding-warning">
          ⚠ {effect.rounded.toLocaleString()} {effect.rounded === 1 ? 'row' : 'rows'} rounded: {formatParam(effect.firstRounded.before)} × {formatParam(effect.factor)} ={' '}
          {formatNumber(effect.firstRounded.exact)} → {formatParam(effect.firstRounded.after)}
          {effect.total.after !== effect.total.exact && ` (total ${formatNumber(effect.total.after)}, not ${formatNumber(effect.total.exact)})`}
        </div>
      )}
    </div>
  ));
}
