import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { EventStreamError } from 'scenarist/client';
import { useApi } from './context.tsx';
import { keys } from './keys.ts';
import { applyEvent } from './live.ts';

export type LiveMode = 'connecting' | 'live' | 'polling';

/**
 * Follows the session's events through the typed client's `watchEvents` (which reconnects after a drop
 * and resumes after the last event it saw). While the stream is down the page polls; when the server
 * refuses it for good (no such route, no access) the page polls from then on. A new token restarts it.
 */
export function useLiveUpdates(sid: string): LiveMode {
  const api = useApi();
  const client = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('connecting');
  const token = useSyncExternalStore(api.config.onTokenChange, () => api.config.token);

  useEffect(() => {
    const stop = new AbortController();
    setMode('connecting');
    api
      .watchEvents(sid, {
        signal: stop.signal,
        onOpen: () => {
          setMode('live');
          // Whatever happened while disconnected: refetch once.
          void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
        },
        onEvent: (event) => applyEvent(client, sid, event),
        onError: () => setMode('polling'),
      })
      .catch((err: unknown) => {
        if (stop.signal.aborted) return;
        if (err instanceof EventStreamError && err.status === 401) api.config.notifyUnauthorized();
        setMode('polling');
      });
    return () => stop.abort();
  }, [api, client, sid, token]);

  return mode;
}
