import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { listSamples, loadSample } from '../api/samples.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';

/**
 * "Load the sample data": where the domain ships samples (`GET .../samples`), a session without data can
 * be tried at once, without finding the files. The load runs the ETL as an upload does; its report's
 * errors (a domain's broken samples) show here. Nothing shows when the domain ships none, or against a
 * server without the route.
 */
export function SampleDataOffer({ sid }: { sid: string }) {
  const api = useApi();
  const client = useQueryClient();
  const samples = useQuery({ queryKey: ['samples', sid], queryFn: () => listSamples(api, sid), retry: false, staleTime: Infinity });
  const load = useMutation({
    mutationFn: (datasetName: string) => loadSample(api, sid, datasetName),
    onSuccess: (result) => {
      if (result.success) void client.invalidateQueries({ queryKey: keys.datasets(sid) });
    },
  });
  const sample = samples.data?.[0];
  if (!sample) {
    const missingRoute = samples.error instanceof ApiError && samples.error.isMissingRoute;
    return missingRoute ? null : <ErrorNote error={samples.error} />;
  }
  const failed = load.data && !load.data.success ? load.data.messages.filter((m) => m.severity === 'error') : [];
  return (
    <div className="sample-offer" data-testid="sample-offer">
      <p>
        Or try it first on the sample data the domain ships ({sample.files.join(', ')}), loaded as the dataset <strong>{sample.dataset_name}</strong>.
      </p>
      <button type="button" onClick={() => load.mutate(sample.dataset_name)} disabled={load.isPending}>
        {load.isPending ? 'Loading the sample data…' : 'Load the sample data'}
      </button>
      <ErrorNote error={load.error} />
      {failed.length > 0 && (
        <div className="alert error" role="alert">
          The sample data did not load: {failed.map((m) => [m.file, m.message].filter(Boolean).join(': ')).join('; ')}
        </div>
      )}
    </div>
  );
}
