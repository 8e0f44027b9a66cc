import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { auditCsv, auditPage, type AuditFilter } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { saveBlob } from '../csv.ts';
import { phraseOf } from '../decisions/activity-phrases.ts';
import { ActivitySentence } from '../decisions/ActivitySentence.tsx';
import { KNOWN_ACTIONS, outcomeOf } from '../decisions/audit-actions.ts';
import { useActivityNames } from '../decisions/use-activity-names.ts';
import { formatTime } from '../format.ts';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';

const PAGE_SIZE = 50;

/**
 * Who did what in the session: its audit trail (docs/api/audit.md), newest first, filtered by action
 * and by who, a page at a time (the cursors seen are kept to go back), and every matching entry as CSV.
 */
export function ActivityPage() {
  const api = useApi();
  const sid = useSid();
  usePageTitle('Activity');
  const [filter, setFilter] = useState<AuditFilter>({});
  // cursors[n] opens page n (page 0 has none).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState(0);
  const cursor = cursors[page];
  const entries = useQuery({
    queryKey: [...keys.audit(sid), filter.action ?? '', filter.who ?? '', cursor ?? ''],
    queryFn: () => auditPage(api, sid, filter, PAGE_SIZE, cursor),
    placeholderData: keepPreviousData,
  });
  const csv = useMutation({ mutationFn: async () => saveBlob(await auditCsv(api, sid, filter), `activity-${sid}.csv`) });
  const apply = (next: AuditFilter) => {
    setFilter(next);
    setCursors([undefined]);
    setPage(0);
  };
  const next = () => {
    const nextCursor = entries.data?.next_cursor;
    if (!nextCursor) return;
    setCursors((list) => [...list.slice(0, page + 1), nextCursor]);
    setPage(page + 1);
  };
  const rows = entries.data?.entries ?? [];
  const names = useActivityNames(sid);
  return (
    <>
      <h1>Activity</h1>
      <p className="muted">Every change asked of this session: who asked, what it was, how it ended and from where. Newest first.</p>
      <ActivityFilter current={filter} onApply={apply} />
      <ErrorNote error={entries.error ?? csv.error} />
      {entries.isPending && <p role="status">Loading…</p>}
      {entries.data && rows.length === 0 && <p className="muted">No activity matches.</p>}
      {rows.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Activity">
          <table className="plain activity-table" data-testid="activity">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Outcome</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                const phrase = phraseOf(e, names);
                return (
                  <tr key={e.seq} data-testid="activity-entry" data-action={e.action} data-outcome={outcomeOf(e.status)}>
                    <td>{formatTime(e.at)}</td>
                    <td>{e.who.name}</td>
                    <td className="activity-what" title={e.action}>
                      <ActivitySentence sid={sid} phrase={phrase} />
                    </td>
                    <td>
                      <span className="badge" data-outcome={outcomeOf(e.status)} title={`HTTP ${e.status}`}>
                        {phrase.outcome}
                      </span>
                    </td>
                    <td className="small">{e.address ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="row small" style={{ marginTop: '0.5rem' }}>
        <span aria-live="polite">{entries.data ? `Page ${page + 1}` : ''}</span>
        <span className="spacer" />
        <button type="button" onClick={() => setPage(page - 1)} disabled={page === 0 || entries.isFetching}>
          Newer
        </button>
        <button type="button" onClick={next} disabled={!entries.data?.next_cursor || entries.isFetching}>
          Older
        </button>
        <button type="button" onClick={() => csv.mutate()} disabled={csv.isPending}>
          Export CSV
        </button>
      </div>
    </>
  );
}

function ActivityFilter({ current, onApply }: { current: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const actionId = useId();
  const whoId = useId();
  const listId = useId();
  const [action, setAction] = useState(current.action ?? '');
  const [who, setWho] = useState(current.who ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...(action.trim() ? { action: action.trim() } : {}), ...(who.trim() ? { who: who.trim() } : {}) });
  };
  return (
    <form className="row card activity-filter" onSubmit={submit} aria-label="Filter the activity">
      <label htmlFor={actionId}>Action</label>
      <input id={actionId} list={listId} value={action} onChange={(e) => setAction(e.target.value)} placeholder="any" />
      <datalist id={listId}>
        {KNOWN_ACTIONS.map((a) => (
          <option key={a} value={a} />
        ))}
      </datalist>
      <label htmlFor={whoId}>Who</label>
      <input id={whoId} value={who} onChange={(e) => setWho(e.target.value)} placeholder="anyone" />
      <button type="submit" className="primary">
        Filter
      </button>
      {(current.action || current.who) && (
        <button
          type="button"
          onClick={() => {
            setAction('');
            setWho('');
            onApply({});
          }}
        >
          Clear
        </button>
      )}
    </form>
  );
}
