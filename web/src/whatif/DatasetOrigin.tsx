import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { datasetLineage } from '../api/what-if.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { EditSentences } from './EditSentences.tsx';

/**
 * Where a derived dataset comes from (`GET .../data/{key}/lineage`): its parent and the edits that made
 * it, each with the rows it touched. Nothing for an uploaded dataset, or from a server without the route.
 */
export function DatasetOrigin({ sid, datasetKey }: { sid: string; datasetKey: string }) {
  const api = useApi();
  const lineage = useQuery({ queryKey: keys.datasetLineage(sid, datasetKey), queryFn: () => datasetLineage(api, sid, datasetKey), retry: false });
  if (lineage.error) return lineage.error instanceof ApiError && lineage.error.isMissingRoute ? null : <ErrorNote error={lineage.error} />;
  const origin = lineage.data;
  if (!origin?.parent) return null;
  return (
    <div className="derived-from" data-testid="dataset-parent">
      <p className="small" style={{ margin: '0 0 0.25rem' }}>
        Derived from <strong>{origin.parent}</strong>
        {origin.edits.length > 0 ? ' with these edits:' : ' unchanged.'}
      </p>
      {origin.edits.length > 0 && <EditSentences edits={origin.edits} rows={origin.edits.map((e) => e.rows)} testId="dataset-edits" />}
    </div>
  );
}
