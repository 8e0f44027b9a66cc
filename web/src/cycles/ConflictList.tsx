import { useQueries } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import type { RebaseConflict } from '../api/cycles.ts';
import { keys } from '../api/keys.ts';
import { appliedEdits, datasetLineage } from '../api/what-if.ts';
import { editSentence } from '../whatif/edit-sentence.ts';
import { conflictEditIndex, conflictPlace } from './conflict-words.ts';

/**
 * The edits a rebase could not re-apply, each in words: the scenario (its tag), the edit (its place and,
 * read from its dataset's lineage, what it does), and why it no longer fits the new data.
 */
export function ConflictList({ sid, conflicts }: { sid: string; conflicts: readonly RebaseConflict[] }) {
  const api = useApi();
  const datasets = [...new Set(conflicts.map((c) => c.dataset))];
  // What each edit does, from the lineage of the dataset it made: a sentence instead of a path alone.
  const lineages = useQueries({
    queries: datasets.map((key) => ({ queryKey: keys.datasetLineage(sid, key), queryFn: () => datasetLineage(api, sid, key), retry: false })),
  });
  const editsOf = new Map(datasets.map((key, i) => [key, lineages[i]?.data ? appliedEdits(lineages[i].data.edits) : undefined]));
  return (
    <ul className="conflict-list" data-testid="rebase-conflicts">
      {conflicts.map((c, i) => {
        const index = conflictEditIndex(c.path);
        const edit = index === null ? undefined : editsOf.get(c.dataset)?.[index];
        return (
          <li key={`${c.scenario_id}:${c.dataset}:${c.path}:${i}`} data-testid="rebase-conflict" data-path={c.path}>
            <strong>{c.tag}</strong>
            {c.dataset !== c.tag && <span className="muted"> (data {c.dataset})</span>}: {conflictPlace(c.path)}
            {edit && (
              <>
                {' '}
                <span className="muted">“{edit.table}: {editSentence(edit)}”</span>
              </>
            )}{' '}
            does not fit: {c.message.replace(/\.$/, '')}.
          </li>
        );
      })}
    </ul>
  );
}
