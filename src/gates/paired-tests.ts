import ttest from '@stdlib/stats-ttest';
import wilcoxon from '@stdlib/stats-wilcoxon';

/**
 * The paired tests a gate's verdict is computed with, from stdlib (`@stdlib/stats-wilcoxon`,
 * `@stdlib/stats-ttest`): maintained, dependency-free of native code, and checked against R's
 * `wilcox.test` and `t.test`, including the exact signed-rank distribution for small samples that a
 * hand-written test would most likely get wrong. Some 300 small packages between them: a server loads
 * them with its first verdict (`load-paired-tests.ts`), not at start, where they took 20 ms of CPU.
 */
export interface PairedTests {
  readonly ttest: typeof ttest;
  readonly wilcoxon: typeof wilcoxon;
}

export const pairedTests: PairedTests = { ttest, wilcoxon };
