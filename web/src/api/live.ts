import type { QueryClient } from '@tanstack/react-query';
import { keys } from './keys.ts';
import type { Scenario, ServerEvent } from './types.ts';

/**
 * Applies one server event to the query cache: status and progress are written straight into the
 * cached scenario list (visible at once, no round trip); anything that changes more than that
 * (a result, KPIs, a new or deleted item) refetches what it touched.
 */
export function applyEvent(client: QueryClient, sid: string, event: ServerEvent): void {
  if (event.type.startsWith('scenario.') && event.scenario_id) {
    const id = event.scenario_id;
    client.setQueryData<Scenario[]>(keys.scenarios(sid), (list) =>
      list?.map((sc) =>
        sc.id === id
          ? {
              ...sc,
              status: event.status ?? sc.status,
              progress: event.progress ?? sc.progress,
              report: event.report !== undefined ? event.report : sc.report,
            }
          : sc,
      ),
    );
    if (event.type !== 'scenario.progress') {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.scenario(sid, id) });
      void client.invalidateQueries({ queryKey: keys.logs(sid, id) });
      void client.invalidateQueries({ queryKey: keys.compare(sid) });
    }
  } else if (event.type.startsWith('dataset.')) {
    void client.invalidateQueries({ queryKey: keys.datasets(sid) });
  } else if (event.type.startsWith('session.')) {
    void client.invalidateQueries({ queryKey: keys.sessions });
  }
}

export const EVENT_TYPES = [
  'scenario.created',
  'scenario.queued',
  'scenario.started',
  'scenario.progress',
  'scenario.completed',
  'scenario.failed',
  'scenario.reset',
  'scenario.deleted',
  'dataset.created',
  'dataset.deleted',
  'session.renamed',
  'session.deleted',
] as const;
