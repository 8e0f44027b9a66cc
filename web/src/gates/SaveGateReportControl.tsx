import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { saveGateReport } from '../api/gates.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Modal } from '../components/Modal.tsx';

/** The server's limits on a report's title and note (docs/api/gates.md, as a comparison's). */
const TITLE_MAX = 200;
const NOTE_MAX = 10_000;

/**
 * A complete gate's "Save as report…": freezes its verdict table, intervals, paired differences and
 * inputs with a title and a note, then opens the report's permalink. A refusal shows in the dialog.
 */
export function SaveGateReportControl({ sid, gid, name }: { sid: string; gid: string; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Save as report…
      </button>
      <Modal open={open} title="Save gate as report" onClose={() => setOpen(false)}>
        {open && <GateReportForm sid={sid} gid={gid} initialTitle={`Gate ${name}`} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function GateReportForm({ sid, gid, initialTitle, onCancel }: { sid: string; gid: string; initialTitle: string; onCancel: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const titleId = useId();
  const noteId = useId();
  const [title, setTitle] = useState(initialTitle.slice(0, TITLE_MAX));
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => saveGateReport(api, sid, gid, { title: title.trim(), ...(note.trim() ? { note: note.trim() } : {}) }),
    onSuccess: (report) => {
      void client.invalidateQueries({ queryKey: keys.reports(sid) });
      void client.invalidateQueries({ queryKey: keys.audit(sid) });
      void navigate({ to: '/s/$sid/reports/$rid', params: { sid, rid: report.id } });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <p>The report keeps this gate's verdict as it is now (the table, each interval, the paired differences, the inputs), even after its runs are rerun or the gate is deleted.</p>
      <div className="field">
        <label htmlFor={titleId}>Title</label>
        <input id={titleId} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={TITLE_MAX} />
      </div>
      <div className="field">
        <label htmlFor={noteId}>
          Note <span className="hint">(optional)</span>
        </label>
        <textarea id={noteId} value={note} onChange={(e) => setNote(e.target.value)} maxLength={NOTE_MAX} rows={4} />
      </div>
      <ErrorNote error={save.error} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.isPending || title.trim() === ''}>
          Save report
        </button>
      </div>
    </form>
  );
}
