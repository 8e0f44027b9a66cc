import type { Scenario } from '../api/types.ts';
import { formatParam } from '../format.ts';

/**
 * The parameters worth a glance: those set away from their default first, at most `limit`. `numeric`
 * says whether the value is a number, which must not break across lines (a list or a text may). The
 * algorithm's seed parameter (`seedParameter`) left unset is left out: the run drew its own seed, which
 * the card shows as the run seed, the word the scenario page uses ("Seed —" beside it read as no seed).
 */
export function keyParameters(
  s: Pick<Scenario, 'algorithm'>,
  limit = 3,
  seedParameter: string | null = null,
): { name: string; label: string; value: string; numeric: boolean }[] {
  const params = s.algorithm.parameters.filter((p) => !(p.name === seedParameter && (p.value === null || p.value === undefined)));
  const changed = params.filter((p) => p.default === undefined || JSON.stringify(p.value) !== JSON.stringify(p.default));
  const rest = params.filter((p) => !changed.includes(p));
  return [...changed, ...rest].slice(0, limit).map((p) => ({ name: p.name, label: p.label ?? p.name, value: formatParam(p.value), numeric: typeof p.value === 'number' }));
}

/** Newest first: by creation time, descending. */
export const newestFirst = (a: Scenario, b: Scenario) => Date.parse(b.created_at) - Date.parse(a.created_at);
