import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from './context.tsx';
import { applyEvent, EVENT_TYPES } from './live.ts';
import type { ServerEvent } from './types.ts';

export type LiveMode = 'connecting' | 'live' | 'polling';

/**
 * Follows the session's server-sent events. A server without the events route (or a stream that
 * cannot open) falls back to polling, which the scenario queries do while the mode is 'polling'.
 * EventSource reconnects by itself after a drop and resumes with Last-Event-ID.
 */
export function useLiveUpdates(sid: string): LiveMode {
  const api = useApi();
  const client = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('connecting');
  const token = useSyncExternalStore(api.config.onTokenChange, () => api.config.token);

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setMode('polling');
      return;
    }
    setMode('connecting');
    let opened = false;
    const source = new EventSource(api.eventsUrl(sid));
    const onEvent = (message: MessageEvent<string>) => {
      try {
        applyEvent(client, sid, JSON.parse(message.data) as ServerEvent);
      } catch {
        // a malformed event is skipped; the next refetch corrects the view
      }
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent as EventListener);
    source.onopen = () => {
      opened = true;
      setMode('live');
      // Whatever happened while disconnected: refetch once.
      void client.invalidateQueries({ queryKey: ['scenarios', sid] });
    };
    source.onerror = () => {
      if (!opened || source.readyState === EventSource.CLOSED) {
        source.close();
        setMode('polling');
      } else {
        setMode('connecting');
      }
    };
    return () => source.close();
  }, [api, client, sid, token]);

  return mode;
}
