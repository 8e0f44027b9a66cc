import type { Waterfall } from '../api/explanations.ts';
import type { BetterWhen } from '../api/types.ts';
import { useChartPalette } from '../charts/palette.ts';
import { formatDelta, formatNumber } from '../format.ts';
import { higherIsBetter } from '../kpis/direction.ts';
import { waterfallBars, type WaterfallBar } from './waterfall.ts';

const ROW = 26;
const LABEL = 170;
const PLOT = 380;
const VALUE = 100;
const WIDTH = LABEL + PLOT + VALUE;

/**
 * A KPI's waterfall as SVG, one bar a row: the baseline's total, each term's change floating from
 * where the last ended (the better/worse colours of the page: a fall is better when lower is better),
 * what the terms leave unexplained (hatched), and the scenario's total. Drawn in the theme's palette
 * like the dashboard's other charts (charts/palette.ts).
 */
export function WaterfallChart({ waterfall, fromLabel, toLabel, betterWhen, unit }: { waterfall: Waterfall; fromLabel: string; toLabel: string; betterWhen?: BetterWhen; unit?: string }) {
  const p = useChartPalette();
  const bars = waterfallBars(waterfall, fromLabel, toLabel);
  const ends = bars.flatMap((b) => [b.start, b.end]);
  const lo = Math.min(0, ...ends);
  const hi = Math.max(0, ...ends);
  const x = (v: number) => LABEL + ((v - lo) / (hi - lo || 1)) * PLOT;
  const height = bars.length * ROW + 4;
  const higher = betterWhen === undefined ? undefined : higherIsBetter(betterWhen);
  const id = `waterfall-${waterfall.kpi}-${waterfall.scenario_id}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const fill = (b: WaterfallBar) => {
    if (b.kind === 'total') return p.muted;
    if (b.kind === 'residual') return `url(#${id}-hatch)`;
    if (higher === undefined || b.value === 0) return p.accent;
    return b.value > 0 === higher ? p.better : p.worse;
  };
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: WIDTH }}
      role="img"
      aria-labelledby={`${id}-title`}
      data-testid="waterfall"
      data-kpi={waterfall.kpi}
    >
      <title id={`${id}-title`}>
        {waterfall.kpi} from {fromLabel} ({formatNumber(waterfall.from)}) to {toLabel} ({formatNumber(waterfall.to)}), step by {waterfall.by}
      </title>
      <defs>
        <pattern id={`${id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="none" />
          <line x1="0" y1="0" x2="0" y2="6" stroke={p.muted} strokeWidth="3" />
        </pattern>
      </defs>
      <line x1={x(0)} x2={x(0)} y1={0} y2={height} stroke={p.grid} />
      {bars.map((b, i) => {
        const y = i * ROW + 4;
        const left = x(Math.min(b.start, b.end));
        const width = Math.max(1, Math.abs(x(b.end) - x(b.start)));
        return (
          <g key={i} data-testid="waterfall-bar" data-kind={b.kind} data-start={b.start} data-end={b.end} data-value={b.value}>
            <text x={LABEL - 6} y={y + ROW / 2} textAnchor="end" dominantBaseline="middle" fill={p.text} fontSize={12} fontStyle={b.kind === 'residual' ? 'italic' : undefined}>
              {b.label.length > 26 ? `${b.label.slice(0, 25)}…` : b.label}
            </text>
            <rect x={left} y={y + 3} width={width} height={ROW - 8} rx={2} fill={fill(b)} stroke={b.kind === 'residual' ? p.muted : 'none'} />
            {/* A step's connector: where the next bar starts. */}
            {i < bars.length - 1 && <line x1={x(b.end)} x2={x(b.end)} y1={y + ROW - 5} y2={y + ROW + 3} stroke={p.muted} strokeDasharray="2 2" />}
            <text x={LABEL + PLOT + 6} y={y + ROW / 2} dominantBaseline="middle" fill={p.text} fontSize={12}>
              {b.kind === 'total' ? formatNumber(b.value) : formatDelta(b.value)}
              {unit ? ` ${unit}` : ''}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
