/**
 * The CI example `scenarist init` writes: an acceptance gate of the scaffold's algorithm (Top Rows)
 * on the sample data, run by `scenarist gate` over a scratch data folder of its own, which exits by
 * the verdict (0 pass, 1 fail, 2 inconclusive, 3 bad input), so a CI step fails unless it passes.
 */

export function gateExample(): string {
  const gate = {
    session: 'main',
    name: 'top rows: 20 vs 10',
    baseline: { algo_name: 'Top Rows', algo_params: { count: 10 } },
    candidate: { algo_name: 'Top Rows', algo_params: { count: 20 } },
    inputs: { datasets: ['sample'] },
    repeats: 6,
    alpha: 0.05,
  };
  return `${JSON.stringify(gate, null, 2)}\n`;
}

export function gateScript(): string {
  return `#!/bin/sh
# Acceptance gate for CI: is the candidate (ci/gate.json) better than the baseline on the sample data?
# Runs its own temporary service over a scratch data folder; exits 0 pass, 1 fail, 2 inconclusive,
# 3 bad input, 4 when the service fails. Against a running service instead: add --url <api base>.
set -e
rm -rf .ci-data
exec ./node_modules/.bin/scenarist gate ci/gate.json --domain ./domain.ts --data-dir .ci-data
`;
}
