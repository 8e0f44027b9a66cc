import type { FieldError } from '../api/http.ts';
import { editSentence } from './edit-sentence.ts';
import type { Edit } from './edits.ts';
import type { ScaleEffect } from './apply-edits.ts';
import { ScaleEffects } from './ScaleEffects.tsx';

/**
 * The edits as sentences, in the order they apply, each with its table, its row count, and (in the
 * editor) a Remove button and the server's refusals of it. An edit that touches no row is flagged: a
 * planner wants to know that "zone = Z" matched nothing. In the editor, a scale shows what it will
 * store (values before → after, and where rounding moved them).
 */
export function EditSentences({ edits, rows, scaled, errors, onRemove, testId = 'edit-list' }: {
  edits: readonly Edit[];
  /** Rows each edit touched (the server's record, or the editor's preview). */
  rows: readonly (number | undefined)[];
  /** What each edit's scales will store (the editor's preview). */
  scaled?: readonly (readonly ScaleEffect[] | undefined)[];
  errors?: ReadonlyMap<number, readonly FieldError[]>;
  onRemove?: (index: number) => void;
  testId?: string;
}) {
  if (edits.length === 0) return <p className="muted small">No edits to the data.</p>;
  return (
    <ol className="edit-list" data-testid={testId}>
      {edits.map((edit, index) => {
        const touched = rows[index];
        const refused = errors?.get(index) ?? [];
        return (
          <li key={index} data-testid="edit" data-rows={touched ?? ''} data-invalid={refused.length > 0 || undefined}>
            <span className="edit-table">{edit.table}</span> <span data-testid="edit-sentence">{editSentence(edit, touched)}</span>
            {touched === 0 && <span className="badge warn-badge"> matches no row</span>}
            {scaled?.[index] && <ScaleEffects effects={scaled[index]} />}
            {onRemove && (
              <button type="button" className="link" onClick={() => onRemove(index)} aria-label={`Remove edit ${index + 1}: ${editSentence(edit)}`}>
                Remove
              </button>
            )}
            {refused.map((e) => (
              <div key={`${e.path}:${e.message}`} className="error-text" role="alert">
                {e.path && <code>{e.path}</code>} {e.message}
              </div>
            ))}
          </li>
        );
      })}
    </ol>
  );
}
