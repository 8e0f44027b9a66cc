import type { QueryClient } from '@tanstack/react-query';
import type { ScenaristEvent } from 'scenarist/client';
import { keys } from './keys.ts';
import { asRunReport } from './run-report.ts';
import { scheduleKeys } from './schedules.ts';
import { STATUSES, type Scenario, type Status } from './types.ts';

const isStatus = (value: unknown): value is Status => (STATUSES as readonly unknown[]).includes(value);

/**
 * Applies one server event to the query cache: status and progress are written straight into the
 * cached scenario list (visible at once, no round trip); anything that changes more than that
 * (a result, KPIs, a new or deleted item) refetches what it touched.
 */
export function applyEvent(client: QueryClient, sid: string, event: ScenaristEvent): void {
  if (event.type.startsWith('scenario.') && event.scenario_id) {
    const id = event.scenario_id;
    // The client types an event's fields loosely (events are not in the OpenAPI document): take only
    // what has the scenario's shape.
    const status = isStatus(event.status) ? event.status : undefined;
    const progress = typeof event.progress === 'number' ? event.progress : undefined;
    const report = asRunReport(event.report);
    // A reset clears the run's report (the refetch it starts confirms the rest).
    const update = (sc: Scenario): Scenario =>
      event.type === 'scenario.reset'
        ? { ...sc, status: status ?? 'CREATED', progress: 0, report: undefined }
        : { ...sc, status: status ?? sc.status, progress: progress ?? sc.progress, report: report ?? sc.report };
    client.setQueryData<Scenario[]>(keys.scenarios(sid), (list) => list?.map((sc) => (sc.id === id ? update(sc) : sc)));
    if (event.type !== 'scenario.progress') {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.scenario(sid, id) });
      void client.invalidateQueries({ queryKey: keys.logs(sid, id) });
      void client.invalidateQueries({ queryKey: keys.compare(sid) });
      // A chain shows each member's status, and a branch made or deleted changes the tree.
      void client.invalidateQueries({ queryKey: keys.lineage(sid) });
      // A run's views are cached per run: a reset or rerun shows the new one.
      void client.invalidateQueries({ queryKey: keys.views(sid, 'scenario', id) });
      void client.invalidateQueries({ queryKey: keys.views(sid, 'compare') });
    }
  } else if (event.type.startsWith('dataset.')) {
    void client.invalidateQueries({ queryKey: keys.datasets(sid) });
    void client.invalidateQueries({ queryKey: keys.views(sid, 'dataset') });
    // New data under a key (a new version) moves the stale marks of the scenarios and the plan on it (docs/api/cycles.md).
    void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
    void client.invalidateQueries({ queryKey: keys.plan(sid) });
  } else if (event.type.startsWith('experiment.')) {
    // experiment.progress / experiment.completed: counts and summary are read again (both keys share the prefix).
    void client.invalidateQueries({ queryKey: keys.experiments(sid) });
  } else if (event.type.startsWith('plan.')) {
    // plan.published / plan.withdrawn: the badge, the home's plan and Compare's default baseline follow.
    void client.invalidateQueries({ queryKey: keys.plan(sid) });
  } else if (event.type.startsWith('schedule.')) {
    // schedule.alert: a run ended past a threshold; its schedule's last run and history show it.
    void client.invalidateQueries({ queryKey: scheduleKeys.all(sid) });
  } else if (event.type.startsWith('session.')) {
    void client.invalidateQueries({ queryKey: keys.sessions });
  }
}
