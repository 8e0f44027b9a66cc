import type { ExperimentSummary } from './summary.js';

/** Experiments whose last summary is kept: those being watched. */
const KEPT = 64;

/**
 * The last summary of each experiment, with the stamp of the COMPLETE scenarios it was computed from
 * (`ExperimentsRepository.counts`). A finished experiment is read again and again (a dashboard refetches
 * it on every event of the session) and its summary reads every KPI value: while the stamp holds, the
 * kept summary is the same one. Least recently used out first.
 */
export class SummaryCache {
  private readonly kept = new Map<string, { readonly stamp: string; readonly summary: Promise<ExperimentSummary | undefined> }>();

  get(key: string, stamp: string, compute: () => Promise<ExperimentSummary | undefined>): Promise<ExperimentSummary | undefined> {
    const hit = this.kept.get(key);
    this.kept.delete(key);
    if (hit?.stamp === stamp) {
      this.kept.set(key, hit);
      return hit.summary;
    }
    const summary = compute();
    const entry = { stamp, summary };
    this.kept.set(key, entry);
    // A failed read is not kept.
    summary.catch(() => {
      if (this.kept.get(key) === entry) this.kept.delete(key);
    });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return summary;
  }

  /** Forgets an experiment (deleted); `key` names it in its session. */
  drop(key: string): void {
    this.kept.delete(key);
  }
}
