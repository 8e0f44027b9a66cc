/** What a schedule does, as stored and as answered (docs/api/schedules.md). */

export const ACTION_KINDS = ['replan', 'rerun', 'experiment'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** The action of each tick, after its refresh: one of three, each naming only what it needs. */
export type ScheduleAction =
  | { readonly kind: 'replan' }
  | { readonly kind: 'rerun'; readonly scenario: string }
  | { readonly kind: 'experiment'; readonly experiment: string };

/** A KPI's alert: a change against the published plan larger than either bound (both optional). */
export interface KpiThreshold {
  readonly absolute?: number;
  /** A share of the plan's value (0.05: five percent). */
  readonly relative?: number;
}

/** Churn's alert: more result rows changed than `rows`, or a larger share than `share`. */
export interface ChurnThreshold {
  readonly rows?: number;
  readonly share?: number;
}

export interface Notify {
  readonly kpis: Readonly<Record<string, KpiThreshold>>;
  readonly churn: ChurnThreshold | null;
}

export const CATCH_UP_MODES = ['none', 'latest', 'all'] as const;
export type CatchUpMode = (typeof CATCH_UP_MODES)[number];

/** `all` runs at most `max` missed ticks (the latest ones): a long downtime never floods the executor. */
export type CatchUp = { readonly mode: 'none' } | { readonly mode: 'latest' } | { readonly mode: 'all'; readonly max: number };

export const DEFAULT_CATCH_UP_MAX = 10;
export const MAX_CATCH_UP_MAX = 1_000;

/** A schedule as validated, ready to store. */
export interface ScheduleSpec {
  readonly name: string;
  readonly cron: string;
  readonly timezone: string;
  readonly active: boolean;
  readonly refreshKey: string | null;
  readonly action: ScheduleAction;
  readonly notify: Notify | null;
  readonly catchUp: CatchUp;
}
