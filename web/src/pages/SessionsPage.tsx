import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { Session } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';
import { PromptDialog } from '../components/PromptDialog.tsx';
import { RowActionsCell } from '../components/RowActionsCell.tsx';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';
import { ScrollTable } from '../components/ScrollTable.tsx';

type Action = { kind: 'rename' | 'copy' | 'delete'; session: Session } | null;

/** Sessions: list, create, rename, copy, delete (confirmed), switch. */
export function SessionsPage() {
  const api = useApi();
  usePageTitle('Sessions');
  const client = useQueryClient();
  const currentSid = useSid();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions() });
  const [name, setName] = useState('');
  const [action, setAction] = useState<Action>(null);
  const refresh = () => client.invalidateQueries({ queryKey: keys.sessions });

  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (displayName: string) => api.createSession(displayName),
    // A new session is made to be filled: open its home, which names the files to upload. The answer
    // is the list of sessions; display names are unique, so the new one is the one of that name.
    onSuccess: async (answer, displayName) => {
      setName('');
      await refresh();
      const created = answer.sessions.find((s) => s.display_name === displayName);
      if (created) void navigate({ to: '/s/$sid', params: { sid: created.id } });
    },
  });
  const rename = useMutation({ mutationFn: (v: { sid: string; name: string }) => api.renameSession(v.sid, v.name), onSuccess: () => { setAction(null); void refresh(); } });
  const copy = useMutation({ mutationFn: (v: { sid: string; name: string }) => api.copySession(v.sid, v.name), onSuccess: () => { setAction(null); void refresh(); } });
  const remove = useMutation({ mutationFn: (sid: string) => api.deleteSession(sid), onSuccess: () => { setAction(null); void refresh(); } });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '') create.mutate(name.trim());
  };
  const close = () => {
    setAction(null);
    rename.reset();
    copy.reset();
    remove.reset();
  };

  return (
    <>
      <h1>Sessions</h1>
      {sessions.data?.sessions.length === 0 && (
        <section className="card next-step" aria-labelledby="start-title" data-testid="next-step" data-step="session">
          <h2 id="start-title">Start here</h2>
          <p>
            A session holds your datasets and scenarios. Name one below and create it; its home page then names the files to upload, with a template
            for each.
          </p>
        </section>
      )}
      <section className="card" aria-labelledby="new-session">
        <h2 id="new-session" style={{ marginTop: 0 }}>
          New session
        </h2>
        <form className="row" onSubmit={submit}>
          <label htmlFor="session-name">Name</label>
          <input id="session-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
            Create session
          </button>
        </form>
        <ErrorNote error={create.error} />
      </section>

      <section className="card" aria-labelledby="all-sessions">
        <h2 id="all-sessions" style={{ marginTop: 0 }}>
          All sessions
        </h2>
        <ErrorNote error={sessions.error} />
        <ScrollTable headings={['Name', 'Id', 'Actions']}>
          {sessions.data?.sessions.map((s) => {
            const isCurrent = s.id === currentSid || s.display_name === currentSid;
            return (
              <tr key={s.id}>
                <td>
                  <Link to="/s/$sid" params={{ sid: s.id }}>
                    {s.display_name}
                  </Link>
                  {isCurrent && <span className="badge" style={{ marginLeft: 6 }}>current</span>}
                </td>
                <td className="mono small">{s.id}</td>
                <RowActionsCell
                  actions={[
                    { label: 'Rename', accessibleName: `Rename ${s.display_name}`, onClick: () => setAction({ kind: 'rename', session: s }) },
                    { label: 'Copy', accessibleName: `Copy ${s.display_name}`, onClick: () => setAction({ kind: 'copy', session: s }) },
                    { label: 'Delete', accessibleName: `Delete ${s.display_name}`, onClick: () => setAction({ kind: 'delete', session: s }), danger: true },
                  ]}
                />
              </tr>
            );
          })}
        </ScrollTable>
      </section>

      <PromptDialog
        open={action?.kind === 'rename'}
        title="Rename session"
        label="New name"
        initial={action?.session.display_name ?? ''}
        submitLabel="Rename"
        error={rename.error}
        busy={rename.isPending}
        onSubmit={(value) => action && rename.mutate({ sid: action.session.id, name: value })}
        onCancel={close}
      />
      <PromptDialog
        open={action?.kind === 'copy'}
        title="Copy session"
        label="Name of the copy"
        initial={action ? `${action.session.display_name} copy` : ''}
        submitLabel="Copy"
        error={copy.error}
        busy={copy.isPending}
        onSubmit={(value) => action && copy.mutate({ sid: action.session.id, name: value })}
        onCancel={close}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        title="Delete session"
        message={
          <>
            Delete <strong>{action?.session.display_name}</strong> with all its datasets and scenarios? This cannot be undone.
            <ErrorNote error={remove.error} />
          </>
        }
        confirmLabel="Delete session"
        busy={remove.isPending}
        onConfirm={() => action && remove.mutate(action.session.id)}
        onCancel={close}
      />
    </>
  );
}
