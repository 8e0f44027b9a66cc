import { useQuery } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { useApi } from './api/context.tsx';
import { keys } from './api/keys.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { useLiveUpdates } from './api/use-live-updates.ts';
import { LiveModeContext } from './live-mode.ts';
import { useSid } from './session.ts';

const LABELS = { connecting: 'connecting…', live: 'live', polling: 'polling' } as const;

/** Pages of one session: follows its event stream and tells whether updates are live. */
export function SessionLayout() {
  const sid = useSid();
  const mode = useLiveUpdates(sid);
  const api = useApi();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions() });
  // Known only once the list is in (an id or a display name); a failed list (no token yet) decides nothing.
  const unknown = sessions.data !== undefined && !sessions.data.sessions.some((s) => s.id === sid || s.display_name === sid);
  if (unknown) return <NotFoundPage what={`The session “${sid}”`} />;
  return (
    <LiveModeContext.Provider value={mode}>
      <p className="live" data-mode={mode} data-testid="live-mode" style={{ margin: '0 0 0.5rem', textAlign: 'right' }}>
        Updates: {LABELS[mode]}
      </p>
      <Outlet />
    </LiveModeContext.Provider>
  );
}
