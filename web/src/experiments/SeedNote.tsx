import type { AlgorithmInfo } from '../api/types.ts';

/**
 * What repeats mean for an algorithm that declares a seed parameter (`seed_parameter`): left unset, each
 * repeat runs from its own seed and the repeats differ; varied as an axis, the repeats of each value
 * share it and are one run several times, which the server refuses (EXPERIMENT_REPEATS_SEEDED). Said
 * before the form is sent, so the count of repeats is not typed in vain.
 */
export function SeedNote({ algorithm, repeats, varied }: { algorithm: AlgorithmInfo | undefined; repeats: number; varied: readonly string[] }) {
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
  return (
    <p className="muted small" data-testid="seed-note">
      Each repeat runs from its own seed (<code>{seed}</code> stays unset), so the repeats differ; a run&apos;s seed given as <code>{seed}</code> repeats that run.
    </p>
  );
}
