import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import type { ScheduleNames } from './schedule-words.ts';

/** Scenario tags and experiment names for the ids schedules and their runs hold (the lists other pages cache too). */
export function useScheduleNames(sid: string): ScheduleNames & { readonly scenarios: ReadonlyMap<string, string> } {
  const api = useApi();
  const scenarios = useScenarioList(sid);
  const experiments = useQuery({ queryKey: keys.experiments(sid), queryFn: () => api.listExperiments(sid) });
  return useMemo(
    () => ({
      scenarios: new Map((scenarios.data ?? []).map((s) => [s.id, s.tag])),
      experiments: experiments.data && new Map(experiments.data.map((e) => [e.id, e.name])),
    }),
    [scenarios.data, experiments.data],
  );
}
