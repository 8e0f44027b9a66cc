import type { BetterWhen, KpiValue, Scenario } from '../api/types.ts';

/** A parameter's name as a label: "max_moves" and "maxMoves" read "Max moves". */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How long the latest run took (or has taken so far, while it runs); null before it started. */
export function runDuration(s: Pick<Scenario, 'started_at' | 'finished_at'>, now = Date.now()): number | null {
  if (!s.started_at) return null;
  const start = Date.parse(s.started_at);
  const end = s.finished_at ? Date.parse(s.finished_at) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** True when `a` is better than `b` for a KPI going `direction` (a threshold direction reads as its side). */
export function better(direction: BetterWhen, a: number, b: number): boolean {
  return direction === 'HIGHER' || direction === 'AT_LEAST' ? a > b : a < b;
}

/**
 * The best value of each KPI among the session's complete scenarios, by its direction: the scenario
 * page marks the KPIs of this scenario that equal it.
 */
export function bestInSession(scenarios: readonly Scenario[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const s of scenarios) {
    if (s.status !== 'COMPLETE') continue;
    for (const k of Object.values<KpiValue>(s.kpis)) {
      if (k.value === null) continue;
      const current = best.get(k.name);
      if (current === undefined || better(k.better_when, k.value, current)) best.set(k.name, k.value);
    }
  }
  return best;
}
