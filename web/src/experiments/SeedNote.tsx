import type { AlgorithmInfo } from '../api/types.ts';

/**
 * What repeats mean for an algorithm that declares a seed parameter (`seed_parameter`): left unset, each
 * repeat runs from its own seed and the repeats differ; varied as an axis or given a fixed value, the
 * repeats of each combination share it and are one run several times, which the server refuses (EXPERIMENT_REPEATS_SEEDED). Said
 * before the form is sent, so the count of repeats is not typed in vain.
 */
export function SeedNote({
  algorithm,
  repeats,
  varied,
  fixed = [],
}: {
  algorithm: AlgorithmInfo | undefined;
  repeats: number;
  /** The varied parameters' paths (`algo_params.<name>`). */
  varied: readonly string[];
  /** The names of the algorithm's parameters given a fixed value. */
  fixed?: readonly string[];
}) {
  const seed = algorithm?.seed_parameter;
  if (!seed || !(repeats > 1)) return null;
  if (varied.includes(`algo_params.${seed}`)) {
    return (
      <p className="alert warning" data-testid="seed-note">
        Varying <code>{seed}</code> with {repeats} repeats: the repeats of each value would run from the same seed and give the same result. Use 1 repeat, or
        stop varying <code>{seed}</code>.
      </p>
    );
  }
  if (fixed.includes(seed)) {
    return (
      <p className="alert warning" data-testid="seed-note">
        <code>{seed}</code> has a fixed value with {repeats} repeats: every repeat would run from that seed and give the same result. Use 1 repeat, or leave{' '}
        <code>{seed}</code> empty.
      </p>
    );
  }
  return (
    <p className="muted small" data-testid="seed-note">
      Each repeat runs from its own seed (<code>{seed}</code> stays unset), so the repeats differ; a run&apos;s seed given as <code>{seed}</code> repeats that run.
    </p>
  );
}
