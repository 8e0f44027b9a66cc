import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../api/context.tsx';
import { datasetAtVersion } from '../api/cycles.ts';
import { keys } from '../api/keys.ts';
import { TableSummary } from '../compare/TableSummary.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { diffVersions, sameContent } from './version-diff.ts';

/** What changed between two versions of a dataset, per table: rows added, removed and changed, with examples. */
export function VersionDiff({ sid, datasetKey, from, to }: { sid: string; datasetKey: string; from: number; to: number }) {
  const api = useApi();
  // A version never changes once written: read each once.
  const at = (version: number) => ({
    queryKey: ['dataset-version', sid, datasetKey, version],
    queryFn: () => datasetAtVersion(api, sid, datasetKey, version),
    staleTime: Infinity,
  });
  const before = useQuery(at(from));
  const after = useQuery(at(to));
  const schemas = useQuery({ queryKey: keys.schemas(sid), queryFn: () => api.schemas(sid) });
  const diffs = useMemo(
    () => (before.data && after.data && !schemas.isPending ? diffVersions(before.data, after.data, schemas.data) : undefined),
    [before.data, after.data, schemas.isPending, schemas.data],
  );
  return (
    <div data-testid="version-diff" aria-live="polite">
      <h3>
        v{from} → v{to}
      </h3>
      <ErrorNote error={before.error ?? after.error} />
      {!diffs && !before.error && !after.error && <p role="status">Comparing…</p>}
      {diffs && sameContent(diffs) && <p className="muted">The two versions hold the same rows.</p>}
      {diffs && !sameContent(diffs) && (
        <ul className="param-changes" data-testid="version-tables">
          {diffs.map((d) => (
            <li key={d.table}>
              <TableSummary diff={d} fromName={`v${from}`} toName={`v${to}`} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
