import type { PairedTests } from './paired-tests.js';

let loading: Promise<PairedTests> | undefined;

/** The paired tests (paired-tests.ts), imported once, on the first verdict: only the type is imported here, so a start loads none of stdlib. */
export function loadPairedTests(): Promise<PairedTests> {
  loading ??= import('./paired-tests.js').then((module) => module.pairedTests);
  return loading;
}
