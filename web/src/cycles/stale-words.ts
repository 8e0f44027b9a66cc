import type { StaleMark } from '../api/cycles.ts';

/** What is marked stale: a scenario (finished or not), the published plan, or a derived dataset. */
export type StaleSubject =
  | { readonly kind: 'scenario'; readonly dataset: string; readonly computed: boolean }
  | { readonly kind: 'plan'; readonly dataset: string }
  | { readonly kind: 'dataset'; readonly dataset: string };

const at = (dataset: string, version: number) => `${dataset} v${version}`;

/**
 * A stale mark in words, as a planner reads it: "Computed on week49 v3; week49 is now v4." When the
 * dataset that moved is an ancestor of the subject's own (a what-if's data derived from the master), the
 * sentence names both: "Its data pets was derived from week49 v3; week49 is now v4."
 */
export function staleSentence(mark: StaleMark, subject: StaleSubject): string {
  const now = `${mark.dataset} is now v${mark.to_version}`;
  if (subject.kind === 'dataset') return `Derived from ${at(mark.dataset, mark.from_version)}; ${now}.`;
  if (mark.dataset !== subject.dataset) return `Its data ${subject.dataset} was derived from ${at(mark.dataset, mark.from_version)}; ${now}.`;
  // Before its run finishes, a scenario is on the version it was created (or reset) on.
  const verb = subject.kind === 'scenario' && !subject.computed ? 'Created on' : 'Computed on';
  return `${verb} ${at(mark.dataset, mark.from_version)}; ${now}.`;
}

/** A plan churn in words: "141 rows differ from the plan (37 %)"; "Same as the plan" when none. */
export function churnWords(churn: { rows_changed: number; share: number }, against = 'the plan'): string {
  if (churn.rows_changed === 0) return `Same result as ${against}`;
  const rows = `${churn.rows_changed.toLocaleString()} ${churn.rows_changed === 1 ? 'row differs' : 'rows differ'}`;
  return `${rows} from ${against} (${shareText(churn.share)})`;
}

/** A share in [0, 1] as a percentage, never rounded to 0 % or 100 % when it is not exactly that. */
export function shareText(share: number): string {
  const percent = share * 100;
  if (percent > 0 && percent < 1) return '< 1 %';
  if (percent < 100 && percent > 99) return '> 99 %';
  return `${Math.round(percent)} %`;
}
