import { Outlet } from '@tanstack/react-router';
import { useLiveUpdates } from './api/use-live-updates.ts';
import { LiveModeContext } from './live-mode.ts';
import { useSid } from './session.ts';

const LABELS = { connecting: 'connecting…', live: 'live', polling: 'polling' } as const;

/** Pages of one session: follows its event stream and tells whether updates are live. */
export function SessionLayout() {
  const sid = useSid();
  const mode = useLiveUpdates(sid);
  return (
    <LiveModeContext.Provider value={mode}>
      <p className="live" data-mode={mode} data-testid="live-mode" style={{ margin: '0 0 0.5rem', textAlign: 'right' }}>
        Updates: {LABELS[mode]}
      </p>
      <Outlet />
    </LiveModeContext.Provider>
  );
}
