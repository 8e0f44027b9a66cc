import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { datasetVersions, type DatasetVersion } from '../api/cycles.ts';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ScrollTable } from '../components/ScrollTable.tsx';
import { formatTime } from '../format.ts';
import { VersionDiff } from './VersionDiff.tsx';

/**
 * A dataset key's versions (each upload or derive onto the key keeps the previous content): who made
 * each and when, its tables' rows; and the differences between any two of them, row by row.
 */
export function DatasetVersions({ sid, datasetKey }: { sid: string; datasetKey: string }) {
  const api = useApi();
  const versions = useQuery({ queryKey: [...keys.datasets(sid), 'versions', datasetKey], queryFn: () => datasetVersions(api, sid, datasetKey), retry: false });
  // An older server has no versions route: the section is left out.
  if (versions.error instanceof ApiError && versions.error.isMissingRoute) return null;
  const list = versions.data ?? [];
  return (
    <section className="card" aria-labelledby="versions-title" data-testid="dataset-versions">
      <h2 id="versions-title" style={{ marginTop: 0 }}>
        Versions of {datasetKey}
      </h2>
      <ErrorNote error={versions.error} />
      {versions.isPending && <p role="status">Loading…</p>}
      {list.length > 0 && (
        <ScrollTable className="plain stack-on-phone" headings={['Version', 'Made', 'By', 'Rows']}>
          {list.map((v) => (
            <tr key={v.version} data-testid="dataset-version" data-version={v.version}>
              <td>
                v{v.version}
                {v.current && <span className="badge warn-badge">current</span>}
              </td>
              <td data-label="Made">{formatTime(v.created_at)}</td>
              <td data-label="By">{v.created_by ?? 'sample data at start-up'}</td>
              <td className="small" data-label="Rows">
                {v.tables.map((t) => `${t.name} ${t.rows.toLocaleString()}`).join(', ')}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      {list.length === 1 && <p className="muted small">One version so far: uploading new data under {datasetKey} adds the next, and keeps this one.</p>}
      {list.length > 1 && <VersionPicker key={list[0]!.version} sid={sid} datasetKey={datasetKey} versions={list} />}
    </section>
  );
}

/** Two versions to compare, by default the one before the current and the current (newest first in `versions`). */
function VersionPicker({ sid, datasetKey, versions }: { sid: string; datasetKey: string; versions: readonly DatasetVersion[] }) {
  const [from, setFrom] = useState(versions[1]!.version);
  const [to, setTo] = useState(versions[0]!.version);
  const [shown, setShown] = useState<{ from: number; to: number } | null>(null);
  const option = (v: DatasetVersion) => (
    <option key={v.version} value={v.version}>
      v{v.version}
      {v.current ? ' (current)' : ''}
    </option>
  );
  return (
    <>
      <div className="row" style={{ marginTop: '0.5rem' }}>
        <label htmlFor="version-from">Differences from</label>
        <select id="version-from" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
          {versions.map(option)}
        </select>
        <label htmlFor="version-to">to</label>
        <select id="version-to" value={to} onChange={(e) => setTo(Number(e.target.value))}>
          {versions.map(option)}
        </select>
        <button type="button" onClick={() => setShown({ from, to })} disabled={from === to}>
          Show differences
        </button>
      </div>
      {shown && <VersionDiff sid={sid} datasetKey={datasetKey} from={shown.from} to={shown.to} />}
    </>
  );
}
