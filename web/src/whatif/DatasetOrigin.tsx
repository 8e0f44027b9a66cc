import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { datasetLineage } from '../api/what-if.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { RebaseControl } from '../cycles/RebaseControl.tsx';
import { StaleNote } from '../cycles/StaleNote.tsx';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { EditSentences } from './EditSentences.tsx';

/**
 * Where a derived dataset comes from (`GET .../data/{key}/lineage`): its parent (and the parent's version
 * it was derived from) and the edits that made it, each with the rows it touched. When the parent has
 * new data since, it says so, with a Rebase for each scenario on this dataset. Nothing for an uploaded
 * dataset, or from a server without the route.
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
        {typeof origin.parent_version === 'number' && <span data-testid="parent-version"> v{origin.parent_version}</span>}
        {origin.edits.length > 0 ? ' with these edits:' : ' unchanged.'}
      </p>
      <StaleNote mark={origin.stale} subject={{ kind: 'dataset', dataset: datasetKey }}>
        <ScenariosOn sid={sid} datasetKey={datasetKey} />
      </StaleNote>
      {origin.edits.length > 0 && <EditSentences edits={origin.edits} rows={origin.edits.map((e) => e.rows)} testId="dataset-edits" />}
    </div>
  );
}

/** The rebase of each scenario that runs on this dataset: the way a what-if dataset follows new data. */
function ScenariosOn({ sid, datasetKey }: { sid: string; datasetKey: string }) {
  const list = useScenarioList(sid);
  const on = (list.data ?? []).filter((s) => s.input_data_id === datasetKey);
  if (list.data === undefined) return null;
  if (on.length === 0) return <span className="small">No scenario runs on it: derive it again from the new data to follow it.</span>;
  return (
    <>
      {on.map((s) => (
        <div key={s.id} className="row small">
          <strong>{s.tag}</strong> <RebaseControl sid={sid} scenario={s} />
        </div>
      ))}
    </>
  );
}
