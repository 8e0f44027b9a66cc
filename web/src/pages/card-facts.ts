import type { KpiValue, Scenario } from '../api/types.ts';
import { formatParam } from '../format.ts';

/** How long the run took, e.g. `42 s` or `3 min 5 s`; null until it has started and finished. */
export function runDuration(s: Pick<Scenario, 'started_at' | 'finished_at'>): string | null {
  if (!s.started_at || !s.finished_at) return null;
  const ms = Date.parse(s.finished_at) - Date.parse(s.started_at);
  if (!Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The parameters worth a glance: those set away from their default first, at most `limit`. */
export function keyParameters(s: Pick<Scenario, 'algorithm'>, limit = 3): { name: string; label: string; value: string }[] {
  const params = s.algorithm.parameters;
  const changed = params.filter((p) => p.default === undefined || JSON.stringify(p.value) !== JSON.stringify(p.default));
  const rest = params.filter((p) => !changed.includes(p));
  return [...changed, ...rest].slice(0, limit).map((p) => ({ name: p.name, label: p.label ?? p.name, value: formatParam(p.value) }));
}

/** "lower is better" and the like, for a KPI's direction. */
export function directionText(k: Pick<KpiValue, 'better_when'>): string {
  return { HIGHER: 'higher is better', LOWER: 'lower is better', AT_LEAST: 'at least the threshold', AT_MOST: 'at most the threshold' }[k.better_when];
}

/** For each KPI, the finished scenario with the best value (ties: the first). */
export function bestByKpi(scenarios: readonly Scenario[]): Map<string, string> {
  const best = new Map<string, { id: string; value: number }>();
  for (const s of scenarios) {
    if (s.status !== 'COMPLETE') continue;
    for (const k of Object.values(s.kpis)) {
      if (typeof k.value !== 'number') continue;
      const higher = k.better_when === 'HIGHER' || k.better_when === 'AT_LEAST';
      const current = best.get(k.name);
      if (!current || (higher ? k.value > current.value : k.value < current.value)) best.set(k.name, { id: s.id, value: k.value });
    }
  }
  return new Map([...best].map(([name, v]) => [name, v.id]));
}

/** Newest first: by creation time, descending. */
export const newestFirst = (a: Scenario, b: Scenario) => Date.parse(b.created_at) - Date.parse(a.created_at);
