import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { plan, type Plan } from '../api/decisions.ts';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';

/**
 * The session's current plan, or null when none is published. An older server without the plan route
 * (a 404 naming no route) counts as no plan, so lists and Compare still work against it.
 */
export function useCurrentPlan(sid: string): { plan: Plan | null; loading: boolean; error: unknown } {
  const api = useApi();
  const query = useQuery({ queryKey: keys.plan(sid), queryFn: () => plan(api, sid), retry: false });
  const missingRoute = query.error instanceof ApiError && query.error.isMissingRoute;
  return { plan: query.data?.current ?? null, loading: query.isPending && !query.error, error: missingRoute ? null : query.error };
}

/** The id of the scenario that is the session's plan, or undefined. */
export function usePlanScenarioId(sid: string): string | undefined {
  return useCurrentPlan(sid).plan?.scenario_id;
}
