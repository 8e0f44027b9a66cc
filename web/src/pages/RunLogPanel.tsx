import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../api/context.tsx';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';

/** While the run goes on, the open panel follows its log at this pace (events refresh it at the end). */
const LIVE_LOG_MS = 2000;

/**
 * A run's log: its lines and, for a run that threw, the error's class, message and stack. A server
 * without the logs route (a 404 for the route itself) makes the panel go away: `onUnavailable`.
 */
export function RunLogPanel({ sid, id, running, onUnavailable }: { sid: string; id: string; running: boolean; onUnavailable: () => void }) {
  const api = useApi();
  const logs = useQuery({
    queryKey: keys.logs(sid, id),
    queryFn: () => api.scenarioLogs(sid, id),
    retry: false,
    refetchInterval: running ? LIVE_LOG_MS : false,
  });
  const missingRoute = logs.error instanceof ApiError && logs.error.isMissingRoute;
  useEffect(() => {
    if (missingRoute) onUnavailable();
  }, [missingRoute, onUnavailable]);

  if (missingRoute) return null;
  if (logs.error) return <ErrorNote error={logs.error} />;
  if (!logs.data) return <p role="status">Loading logs…</p>;
  const { lines, truncated, error } = logs.data;
  return (
    <div data-testid="logs">
      {error && (
        <div className="alert error" data-testid="run-error">
          <strong>{error.class}</strong>: {error.message}
          {error.stack.length > 0 && (
            // The stack is for whoever debugs the algorithm: behind a toggle, so the message stays in view.
            <details>
              <summary>details</summary>
              <pre className="log" tabIndex={0} aria-label="Stack">
                {error.stack.join('\n')}
              </pre>
            </details>
          )}
        </div>
      )}
      {lines.length === 0 ? (
        <p className="muted small">No log lines.</p>
      ) : (
        <pre className="log" tabIndex={0} aria-label="Run log" data-testid="log-lines">
          {lines.map((l) => `${l.at} ${l.level.toUpperCase()} ${l.message}${l.fields ? ` ${JSON.stringify(l.fields)}` : ''}`).join('\n')}
        </pre>
      )}
      {truncated && <p className="small muted">Older lines were dropped (the last 1,000 are kept).</p>}
    </div>
  );
}
