/**
 * The CI example `scenarist init` writes: an acceptance gate of the scaffold's algorithm (Top Rows)
 * on the sample data, run by `scenarist gate` over a scratch data folder of its own, which exits by
 * the verdict (0 pass, 1 fail, 2 inconclusive, 3 bad input), so a CI step fails unless it passes.
 */

/** Pairs per input of the example gate. */
const EXAMPLE_REPEATS = 6;

export function gateExample(): string {
  const gate = {
    session: 'main',
    name: 'top rows: 20 vs 10',
    baseline: { algo_name: 'Top Rows', algo_params: { count: 10 } },
    candidate: { algo_name: 'Top Rows', algo_params: { count: 20 } },
    inputs: { datasets: ['sample'] },
    repeats: EXAMPLE_REPEATS,
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

/** The README's section on the CI example: what it runs, how to read its exit code, how to point it at a change. */
export function ciSection(): string {
  return `## Is a change better? The acceptance gate in \`ci/\`

\`ci/gate.sh\` runs an acceptance gate, \`ci/gate.json\`: the baseline (Top Rows picking 10 rows) and the
candidate (picking 20) each run ${EXAMPLE_REPEATS} times on the sample data, each pair with the same data and seed, and
for every KPI the paired differences are tested (the verdict per KPI: pass, fail or inconclusive, with
its interval and p-value). It starts a temporary service of its own over a scratch data folder
(\`.ci-data\`, removed first), prints the verdict table and exits by the overall verdict:

| exit code | verdict |
| --- | --- |
| 0 | pass: the candidate is better, with confidence, on every KPI the rule names |
| 1 | fail: it is worse on one of them |
| 2 | inconclusive: the runs cannot tell yet (more \`repeats\`, or a smaller \`min_effect\`) |
| 3 | bad input: the file is not a valid gate (unknown algorithm, repeats 0, alpha outside (0, 0.5], ...) |
| 4 | the service failed |

So a CI step \`sh ci/gate.sh\` fails unless the candidate passes. To gate your own change, put the
version the planners use as \`baseline\` and yours as \`candidate\` (two algorithms of this domain, or one
with other parameters), list the datasets in \`inputs\`, and set \`kpis\`, \`alpha\`, \`min_effect\` or
\`rule\` as Scenarist's docs/api/gates.md describes. Against a running service instead of a temporary
one, add \`--url http://127.0.0.1:8051/api/v1\` (its API base) to the command in \`ci/gate.sh\`.`;
}
