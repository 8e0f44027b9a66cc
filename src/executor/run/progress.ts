/**
 * Wraps a progress sink so it only ever sees values in [0, 1] that never decrease during one run
 * (docs/api/contract.md, "Conventions"). NaN and other non-numbers are ignored: a buggy report must not fail
 * the run nor move the bar backwards.
 */
export function monotoneProgress(sink: (fraction: number) => void): (fraction: number) => void {
  let current = 0;
  return (fraction: number) => {
    if (typeof fraction === 'number' && !Number.isNaN(fraction)) {
      current = Math.max(current, Math.min(1, Math.max(0, fraction)));
    }
    sink(current);
  };
}
