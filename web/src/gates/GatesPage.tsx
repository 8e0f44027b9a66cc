import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { gateKeys, listGates } from '../api/gates.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { formatTime } from '../format.ts';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';
import { GateForm } from './GateForm.tsx';

/** Gates: is the candidate better than the baseline? The session's gates and a form for a new one. */
export function GatesPage() {
  const api = useApi();
  usePageTitle('Gates');
  const sid = useSid();
  const navigate = useNavigate();
  const list = useQuery({ queryKey: gateKeys.all(sid), queryFn: () => listGates(api, sid) });
  return (
    <>
      <h1>Gates</h1>
      <GateForm sid={sid} onCreated={(gid) => void navigate({ to: '/s/$sid/gates/$gid', params: { sid, gid } })} />
      <section aria-labelledby="gates-title">
        <h2 id="gates-title">
          All gates <span className="muted small">({list.data?.length ?? 0})</span>
        </h2>
        <ErrorNote error={list.error} />
        {list.data?.length === 0 && <p className="muted">No gates yet.</p>}
        {list.data && list.data.length > 0 && (
          <ul data-testid="gate-list">
            {list.data.map((g) => (
              <li key={g.id}>
                <a href={`#/s/${encodeURIComponent(sid)}/gates/${encodeURIComponent(g.id)}`}>{g.name}</a>{' '}
                <span className="muted small">
                  {g.baseline.algo_name} → {g.candidate.algo_name} · {g.size} runs · created {formatTime(g.created_at)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
