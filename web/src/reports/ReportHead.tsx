import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { printFrameCss } from './print-frame.ts';

/**
 * The head of every saved report's page (a comparison's, a gate's): the way back to the reports, the
 * title with the report's actions beside it, who saved it and what it holds, and its note. It also
 * carries the printed pages' running header and page numbers (`printFrameCss`).
 */
export function ReportHead({ sid, title, note, meta, actions }: { sid: string; title: string; note: string | null; meta: ReactNode; actions: ReactNode }) {
  return (
    <>
      <style>{printFrameCss(title)}</style>
      <header className="report-section report-head in-summary">
        <p className="small no-print" style={{ margin: '0 0 0.25rem' }}>
          <Link to="/s/$sid/reports" params={{ sid }}>
            Reports
          </Link>{' '}
          / {title}
        </p>
        <div className="row">
          <h1 style={{ margin: 0 }} data-testid="report-title">
            {title}
          </h1>
          <span className="spacer" />
          {actions}
        </div>
        <p className="small muted" data-testid="report-meta">
          {meta}
        </p>
        {note && <blockquote className="plan-note">{note}</blockquote>}
      </header>
    </>
  );
}
