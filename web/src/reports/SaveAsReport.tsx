import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Modal } from '../components/Modal.tsx';

/**
 * The server's limits on a report's title and note, the same for a comparison's and a gate's
 * (docs/api/plans-and-reports.md, docs/api/gates.md).
 */
const TITLE_MAX = 200;
const NOTE_MAX = 10_000;

/** What every "Save as report…" sends beside what it freezes: a title, and a note when one is written. */
export interface ReportTitleAndNote {
  title: string;
  note?: string;
}

interface SaveReportProps {
  sid: string;
  initialTitle?: string;
  /** What the report will keep, above the fields. */
  intro: ReactNode;
  /** Shown while the server saves, when that takes a while (drawing every view). */
  pendingNote?: string;
  /** The one call that differs between them: what the report freezes. */
  save: (input: ReportTitleAndNote) => Promise<{ id: string }>;
}

/**
 * Every "Save as report…" (Compare's, a gate's): a button opening a dialog that asks for a title and
 * a note, saves, and opens the report's permalink. A refusal shows in the dialog.
 */
export function SaveAsReport({ dialogTitle, ...form }: SaveReportProps & { dialogTitle: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Save as report…
      </button>
      <Modal open={open} title={dialogTitle} onClose={() => setOpen(false)}>
        {open && <SaveReportForm {...form} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function SaveReportForm({ sid, initialTitle = '', intro, pendingNote, save: send, onCancel }: SaveReportProps & { onCancel: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const titleId = useId();
  const noteId = useId();
  const [title, setTitle] = useState(initialTitle.slice(0, TITLE_MAX));
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => send({ title: title.trim(), ...(note.trim() ? { note: note.trim() } : {}) }),
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
      <p>{intro}</p>
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
      {save.isPending && pendingNote && <p role="status">{pendingNote}</p>}
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
