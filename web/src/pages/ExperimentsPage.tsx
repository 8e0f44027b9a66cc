import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ExperimentForm } from '../experiments/ExperimentForm.tsx';
import { formatTime } from '../format.ts';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';

/** Experiments: the session's experiments and a form to create (and run) a new one. */
export function ExperimentsPage() {
  const api = useApi();
  usePageTitle('Experiments');
  const sid = useSid();
  const navigate = useNavigate();
  const list = useQuery({ queryKey: keys.experiments(sid), queryFn: () => api.listExperiments(sid) });
  return (
    <>
      <h1>Experiments</h1>
      <ExperimentForm sid={sid} onCreated={(eid) => void navigate({ to: '/s/$sid/experiments/$eid', params: { sid, eid } })} />
      <section aria-labelledby="experiments-title">
        <h2 id="experiments-title">
          All experiments <span className="muted small">({list.data?.length ?? 0})</span>
        </h2>
        <ErrorNote error={list.error} />
        {list.data?.length === 0 && <p className="muted">No experiments yet.</p>}
        {list.data && list.data.length > 0 && (
          <ul data-testid="experiment-list">
            {list.data.map((e) => (
              <li key={e.id}>
                <a href={`#/s/${encodeURIComponent(sid)}/experiments/${encodeURIComponent(e.id)}`}>{e.name}</a>{' '}
                <span className="muted small">
                  {e.algo_name} · {e.size} scenario{e.size === 1 ? '' : 's'} · created {formatTime(e.created_at)}
                  {e.completed_at ? ' · complete' : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
