import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../api/context.tsx';
import { listReports, plan } from '../api/decisions.ts';
import { gateKeys, listGates } from '../api/gates.ts';
import { keys } from '../api/keys.ts';
import { listSchedules, scheduleKeys } from '../api/schedules.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import type { ActivityNames } from './activity-phrases.ts';

/**
 * The names Activity says instead of ids: the session's own, its scenarios' tags, experiments' and
 * gates' and schedules' names, reports' titles, and its plans (current and earlier, for their notes). Each comes from the query the
 * session's other pages use, so it is often cached already; one that fails (an older server without
 * the route) leaves its ids unnamed rather than the page unshown.
 */
export function useActivityNames(sid: string): ActivityNames {
  const api = useApi();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions() });
  const scenarios = useScenarioList(sid);
  const experiments = useQuery({ queryKey: keys.experiments(sid), queryFn: () => api.listExperiments(sid) });
  const reports = useQuery({ queryKey: keys.reports(sid), queryFn: () => listReports(api, sid) });
  const gates = useQuery({ queryKey: gateKeys.all(sid), queryFn: () => listGates(api, sid), retry: false });
  const schedules = useQuery({ queryKey: scheduleKeys.all(sid), queryFn: () => listSchedules(api, sid), retry: false });
  const plans = useQuery({ queryKey: keys.plan(sid), queryFn: () => plan(api, sid), retry: false });
  return useMemo(
    () => ({
      session: sessions.data?.sessions.find((s) => s.id === sid || s.display_name === sid)?.display_name,
      scenarios: scenarios.data && new Map(scenarios.data.map((s) => [s.id, s.tag])),
      experiments: experiments.data && new Map(experiments.data.map((e) => [e.id, e.name])),
      reports: reports.data && new Map(reports.data.map((r) => [r.id, r.title])),
      gates: gates.data && new Map(gates.data.map((g) => [g.id, g.name])),
      schedules: schedules.data && new Map(schedules.data.map((s) => [s.id, s.name])),
      plans: plans.data ? [...(plans.data.current ? [plans.data.current] : []), ...plans.data.history] : [],
    }),
    [sid, sessions.data, scenarios.data, experiments.data, reports.data, gates.data, schedules.data, plans.data],
  );
}
