import type { ReactNode } from 'react';
import type { StaleMark } from '../api/cycles.ts';
import { staleSentence, type StaleSubject } from './stale-words.ts';

/**
 * The mark of something computed on data that has since moved, in words, with what to do about it
 * (`children`: a Rebase or Re-plan control) beside the sentence. Nothing when `mark` is null.
 */
export function StaleNote({ mark, subject, children }: { mark: StaleMark | null | undefined; subject: StaleSubject; children?: ReactNode }) {
  if (!mark) return null;
  return (
    <div className="alert warning stale-note" data-testid="stale-note" data-dataset={mark.dataset}>
      <span className="small">
        <strong>New data.</strong> {staleSentence(mark, subject)}
      </span>
      {children && <div style={{ marginTop: '0.35rem' }}>{children}</div>}
    </div>
  );
}
