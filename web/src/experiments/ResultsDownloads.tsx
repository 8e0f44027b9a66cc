import { useMutation } from '@tanstack/react-query';
import type { ExportFormat } from '../api/client.ts';
import { useApi } from '../api/context.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { saveBlob } from '../csv.ts';

const FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

/** Saves an experiment's results table (one row per scenario, labelled for people: the API's readable style) as CSV or XLSX, through the API's export. */
export function ResultsDownloads({ sid, eid, name }: { sid: string; eid: string; name: string }) {
  const api = useApi();
  const download = useMutation({
    mutationFn: async (format: ExportFormat) => {
      const blob = await api.experimentResultsFile(sid, eid, format);
      // A server that cannot export this way answers JSON: say so rather than save it under the wrong name.
      if (blob.type.includes('json')) throw new Error(`this server does not export experiment results as ${format.toUpperCase()}`);
      saveBlob(blob, `${name} results.${format}`);
    },
  });
  return (
    <div className="row small" data-testid="results-downloads">
      <span>Download the results:</span>
      {FORMATS.map((format) => (
        <button key={format} type="button" onClick={() => download.mutate(format)} disabled={download.isPending} aria-label={`Download the results of ${name} as ${format.toUpperCase()}`}>
          {format.toUpperCase()}
        </button>
      ))}
      {download.error && (
        <div style={{ flexBasis: '100%' }}>
          <ErrorNote error={download.error} />
        </div>
      )}
    </div>
  );
}
