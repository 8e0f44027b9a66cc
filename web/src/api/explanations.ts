import type { operations } from 'scenarist/client';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import { keys } from './keys.ts';
import type { CompareResult } from './types.ts';

/**
 * Why a plan is what it is (docs/api/explanations.md): a scenario's KPI terms and the constraints its
 * plan breaks, and compare's waterfalls. Types come from the generated schema; calls go through the
 * API's typed client.
 */
type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

export type ExplanationPage = Json<operations['getSessionsBySidScenariosByIdExplanation']['responses'][200]>;
export type KpiTerms = ExplanationPage['kpis'][number];
export type Violation = ExplanationPage['violations'][number];
export type RowRef = Violation['rows'][number];
export type Waterfall = CompareResult['explanations'][number];

/** Violations per page of the scenario page's list ("Show more" asks for the next). */
export const VIOLATION_PAGE = 50;

/** Under the scenario's key: a live event about the scenario (a new run) refetches its explanation too. */
export const explanationKey = (sid: string, id: string, limit: number) => [...keys.scenario(sid, id), 'explanation', limit] as const;

export const scenarioExplanation = ({ http, config }: Api, sid: string, id: string, limit: number, cursor?: string): Promise<ExplanationPage> =>
  unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}/explanation', { params: { path: { sid, id }, query: { limit, cursor } } }));

/** How many violations of each scenario Compare reads to tell which appear or disappear. */
export const COMPARED_VIOLATIONS = 2_000;
const LARGEST_PAGE = 500;

/** A scenario's violations, up to `max` (following `next_cursor`), with how many there are in all. */
export interface ViolationSet {
  readonly violations: Violation[];
  readonly count: number;
  readonly infeasible: boolean;
}

export async function scenarioViolations(api: Api, sid: string, id: string, max = COMPARED_VIOLATIONS): Promise<ViolationSet> {
  const violations: Violation[] = [];
  let page = await scenarioExplanation(api, sid, id, Math.min(LARGEST_PAGE, max));
  const { violation_count: count, infeasible } = page;
  violations.push(...page.violations);
  while (page.next_cursor !== null && violations.length < max) {
    page = await scenarioExplanation(api, sid, id, Math.min(LARGEST_PAGE, max - violations.length), page.next_cursor);
    violations.push(...page.violations);
  }
  return { violations, count, infeasible };
}
