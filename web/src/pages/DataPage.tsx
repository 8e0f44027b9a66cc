import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { ExportFormat } from '../api/client.ts';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { DatasetSummary } from '../api/types.ts';
import { DropZone } from '../components/DropZone.tsx';
import type { DataSearch } from '../explanations/row-search.ts';
import { staleSentence } from '../cycles/stale-words.ts';
import { DatasetVersions } from '../data/DatasetVersions.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { EtlReport } from '../components/EtlReport.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';
import { PromptDialog } from '../components/PromptDialog.tsx';
import { RowActionsCell } from '../components/RowActionsCell.tsx';
import { saveBlob } from '../csv.ts';
import { scenariosUsing, uploadBlocker } from '../data/upload-checks.ts';
import { uploadReadyFiles } from '../data/upload-ready-files.ts';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';
import { DatasetPreview } from './DatasetPreview.tsx';
import { DatasetViews } from './DatasetViews.tsx';
import { ScrollTable } from '../components/ScrollTable.tsx';

/** Data: ETL upload with its report, the dataset list, previews, derive, delete, downloads. */
export function DataPage() {
  const api = useApi();
  usePageTitle('Data');
  const sid = useSid();
  const client = useQueryClient();
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState('');
  // A link to a row (a violation's, on a scenario page) opens its dataset at that table and row.
  const search: DataSearch = useSearch({ strict: false });
  const [selected, setSelected] = useState<string | null>(search.dataset ?? null);
  const [action, setAction] = useState<{ kind: 'derive' | 'delete' | 'replace'; key: string } | null>(null);
  // Who uses a dataset that an upload would replace: the confirm says how many.
  const scenarios = useQuery({ queryKey: keys.scenarios(sid), queryFn: () => api.listScenarios(sid) });
  // The key columns of each table, so that the report can name a faulty row's key.
  const schemas = useQuery({ queryKey: keys.schemas(sid), queryFn: () => api.schemas(sid) });
  const refresh = () => client.invalidateQueries({ queryKey: keys.datasets(sid) });

  // The files travel with the mutation: its report then still has them to locate rows in.
  const upload = useMutation({
    mutationFn: (v: { name: string; files: readonly File[] }) => api.uploadEtl(sid, v.name, v.files),
    onSuccess: (result) => {
      if (result.success) {
        setFiles([]);
        setSelected(result.dataset_name);
      }
      void refresh();
    },
  });
  const derive = useMutation({
    mutationFn: (v: { key: string; newKey: string }) => api.deriveDataset(sid, v.key, v.newKey),
    onSuccess: (_r, v) => {
      setAction(null);
      setSelected(v.newKey);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (key: string) => api.deleteDataset(sid, key),
    onSuccess: (_r, key) => {
      setAction(null);
      if (selected === key) setSelected(null);
      void refresh();
    },
  });
  const download = useMutation({
    mutationFn: async (v: { key: string; format: ExportFormat }) => {
      // One file per schema group, named for it: the upload above takes them back unchanged.
      for (const file of await uploadReadyFiles(api, sid, v.key, v.format)) saveBlob(file.blob, file.name);
    },
  });

  // A report describes the files that made it: new files clear it (and the last error).
  const pickFiles = (picked: File[]) => {
    upload.reset();
    setFiles(picked);
  };
  const blocker = uploadBlocker(name, files);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Until the list is in, whether the name is taken is unknown: the upload would replace without asking.
    if (blocker !== null || datasets.isPending) return;
    // The ETL replaces a dataset of the same name without asking: ask here first.
    if (datasets.data?.some((d) => d.key === name.trim())) setAction({ kind: 'replace', key: name.trim() });
    else upload.mutate({ name: name.trim(), files });
  };
  const close = () => {
    setAction(null);
    derive.reset();
    remove.reset();
  };

  return (
    <>
      <h1>Data</h1>
      <section className="card" aria-labelledby="upload-title">
        <h2 id="upload-title" style={{ marginTop: 0 }}>
          Upload
        </h2>
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="dataset-name">Dataset name</label>
            <input id="dataset-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </div>
          <DropZone files={files} onFiles={pickFiles} />
          <div className="row" style={{ marginTop: '0.75rem' }}>
            <button type="submit" className="primary" disabled={upload.isPending || blocker !== null || datasets.isPending} aria-describedby={blocker ? 'upload-hint' : undefined}>
              {upload.isPending ? 'Uploading…' : 'Upload'}
            </button>
            {blocker && (
              <span id="upload-hint" className="muted small" data-testid="upload-hint">
                {blocker}
              </span>
            )}
          </div>
        </form>
        <ErrorNote error={upload.error} />
        {upload.data && <EtlReport result={upload.data} files={upload.variables?.files} groups={schemas.data} />}
      </section>

      <section className="card" aria-labelledby="datasets-title">
        <h2 id="datasets-title" style={{ marginTop: 0 }}>
          Datasets
        </h2>
        <ErrorNote error={datasets.error} />
        <ErrorNote error={download.error} />
        {datasets.data?.length === 0 && <p className="muted">No datasets yet: upload files above.</p>}
        <ScrollTable className="plain stack-on-phone" headings={['Key', 'Kind', 'Version', 'Tables', 'Actions']}>
          {datasets.data?.map((d) => (
            <tr key={d.key} aria-selected={selected === d.key}>
              <td>
                <button type="button" className="link" onClick={() => setSelected(d.key)} aria-label={`Preview ${d.key}`}>
                  {d.key}
                </button>
              </td>
              <td data-label="Kind">{d.kind}</td>
              <td className="small" data-label="Version" data-testid="dataset-version-cell">
                {typeof d.version === 'number' ? `v${d.version}` : '—'}
                {d.stale && (
                  <span className="stale-mark" data-testid="dataset-stale">
                    {' '}
                    <span className="badge warn-badge">new data</span> {staleSentence(d.stale, { kind: 'dataset', dataset: d.key })}
                  </span>
                )}
              </td>
              <td className="small" data-label="Tables">
                {describeTables(d)}
              </td>
              <RowActionsCell
                actions={[
                  { label: 'Derive', accessibleName: `Derive from ${d.key}`, onClick: () => setAction({ kind: 'derive', key: d.key }) },
                  { label: 'Versions', accessibleName: `Versions of ${d.key}`, onClick: () => setSelected(d.key) },
                  { label: 'CSV', accessibleName: `Download ${d.key} as CSV`, onClick: () => download.mutate({ key: d.key, format: 'csv' }) },
                  { label: 'XLSX', accessibleName: `Download ${d.key} as XLSX`, onClick: () => download.mutate({ key: d.key, format: 'xlsx' }) },
                  { label: 'Delete', accessibleName: `Delete ${d.key}`, onClick: () => setAction({ kind: 'delete', key: d.key }), danger: true },
                ]}
              />
            </tr>
          ))}
        </ScrollTable>
      </section>

      {selected && (
        <div className="beside">
          <DatasetPreview sid={sid} datasetKey={selected} focus={selected === search.dataset && search.table ? { table: search.table, row: search.row } : undefined} />
          <DatasetViews key={selected} sid={sid} datasetKey={selected} />
        </div>
      )}
      {selected && <DatasetVersions key={selected} sid={sid} datasetKey={selected} />}

      <PromptDialog
        open={action?.kind === 'derive'}
        title="Derive dataset"
        label="New dataset key"
        initial={action ? `${action.key}-derived` : ''}
        submitLabel="Derive"
        error={derive.error}
        busy={derive.isPending}
        onSubmit={(value) => action && derive.mutate({ key: action.key, newKey: value })}
        onCancel={close}
      />
      <ConfirmDialog
        open={action?.kind === 'replace'}
        title="Replace dataset?"
        message={<ReplaceMessage datasetKey={action?.key ?? ''} users={scenariosUsing(action?.key ?? '', scenarios.data)} />}
        confirmLabel="Replace dataset"
        onConfirm={() => {
          setAction(null);
          upload.mutate({ name: name.trim(), files });
        }}
        onCancel={close}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        title="Delete dataset"
        message={
          <>
            Delete dataset <strong>{action?.key}</strong>? This cannot be undone.
            <ErrorNote error={remove.error} />
          </>
        }
        confirmLabel="Delete dataset"
        busy={remove.isPending}
        onConfirm={() => action && remove.mutate(action.key)}
        onCancel={close}
      />
    </>
  );
}

/** What replacing a dataset does to the scenarios that run on it. */
function ReplaceMessage({ datasetKey, users }: { datasetKey: string; users: number | null }) {
  const who =
    users === null
      ? 'Scenarios of this session may use it'
      : users === 0
        ? 'No scenario uses it'
        : `${users} scenario${users === 1 ? ' uses' : 's use'} it: ${users === 1 ? 'it is' : 'they are'} then marked as computed on the previous version, with a Rebase to follow the new data`;
  return (
    <p data-testid="replace-message">
      A dataset <strong>{datasetKey}</strong> exists: the upload makes its new version, and keeps the current one (the Data page lists its versions). {who}.
    </p>
  );
}

function describeTables(d: DatasetSummary): string {
  return d.tables.map((t) => `${t.name} (${t.rows.toLocaleString()} rows)`).join(', ');
}
