import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { useLiveMode } from '../live-mode.ts';
import { ACTIVE } from './active.ts';

/**
 * The session's scenarios, the list live events update in place (status, progress, report). It polls
 * only when the event stream is unavailable: every second while something runs, else every five.
 */
export function useScenarioList(sid: string) {
  const api = useApi();
  const mode = useLiveMode();
  return useQuery({
    queryKey: keys.scenarios(sid),
    queryFn: () => api.listScenarios(sid),
    refetchInterval: (q) => (mode !== 'polling' ? false : q.state.data?.some((s) => ACTIVE.has(s.status)) ? 1000 : 5000),
  });
}
