import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { createReport } from '../api/decisions.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Modal } from '../components/Modal.tsx';

/** The server's limits on a report's title and note (docs/api/plans-and-reports.md). */
const TITLE_MAX = 200;
const NOTE_MAX = 10_000;

/**
 * Compare's "Save as report…": freezes the comparison shown (these scenarios, this baseline) with a
 * title and a note, then opens the report's permalink. A refusal shows in the dialog.
 */
export function SaveReportControl({ sid, ids, baseline }: { sid: string; ids: readonly string[]; baseline: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Save as report…
      </button>
      <Modal open={open} title="Save as report" onClose={() => setOpen(false)}>
        {open && <ReportForm sid={sid} ids={ids} baseline={baseline} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function ReportForm({ sid, ids, baseline, onCancel }: { sid: string; ids: readonly string[]; baseline: string; onCancel: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const titleId = useId();
  const noteId = useId();
  const [title, setTitle] = useState('');
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => createReport(api, sid, { title: title.trim(), ids: [...ids], baseline, ...(note.trim() ? { note: note.trim() } : {}) }),
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
      <p>The report keeps this comparison as it is now (KPIs, parameters, inputs and every view), even after its scenarios change or are deleted.</p>
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
      {save.isPending && <p role="status">Drawing every view…</p>}
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
