import type { GateKpi } from '../api/gates.ts';

const WIDTH = 220;
const HEIGHT = 18;

/** A scale over the values and 0, padded, so zero is always on the drawing. */
function scale(values: readonly number[]): (v: number) => number {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  return (v) => 6 + ((v - lo) / span) * (WIDTH - 12);
}

/** The confidence interval as a bar, the mean as a dot, zero as a tick: which side of zero it lies on. */
export function IntervalBar({ line }: { line: GateKpi }) {
  if (line.ci === null || line.mean_difference === null) return <span className="muted">-</span>;
  const [low, high] = line.ci as [number, number];
  const x = scale([low, high]);
  return (
    <svg width={WIDTH} height={HEIGHT} role="img" aria-label={`interval ${low.toPrecision(4)} to ${high.toPrecision(4)}, zero marked`}>
      <line x1={x(0)} x2={x(0)} y1={2} y2={HEIGHT - 2} stroke="currentColor" strokeOpacity={0.5} />
      <line x1={x(low)} x2={x(high)} y1={HEIGHT / 2} y2={HEIGHT / 2} stroke="currentColor" strokeWidth={3} />
      <circle cx={x(line.mean_difference)} cy={HEIGHT / 2} r={4} fill="currentColor" />
    </svg>
  );
}

/** Each pair's difference (candidate − baseline) as a dot along one axis, zero marked. */
export function DifferenceStrip({ line }: { line: GateKpi }) {
  const height = 40;
  const x = scale(line.differences);
  return (
    <figure>
      <svg width={WIDTH} height={height} role="img" aria-label={`${line.kpi}: ${line.differences.length} paired differences`}>
        <line x1={x(0)} x2={x(0)} y1={0} y2={height} stroke="currentColor" strokeOpacity={0.5} />
        {line.differences.map((d, i) => (
          // Jittered by pair index so equal differences stay visible.
          <circle key={line.pairs[i]} cx={x(d)} cy={8 + ((i * 7) % (height - 16))} r={3} fill="currentColor" fillOpacity={0.7} />
        ))}
      </svg>
      <figcaption className="muted small">
        {line.kpi}: candidate − baseline per pair ({line.better_when === 'LOWER' ? 'left of 0 is better' : 'right of 0 is better'})
      </figcaption>
    </figure>
  );
}
