import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { SchemaGroup, Scenario } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { saveBlob } from '../csv.ts';
import { bestScenario } from '../home/best-scenario.ts';
import { useSid } from '../session.ts';
import { InlineMarkdown, Markdown } from '../views/markdown.tsx';
import { usePageTitle } from '../page-title.ts';
import { HomePlan } from '../decisions/HomePlan.tsx';
import { SampleDataOffer } from '../home/SampleDataOffer.tsx';

/**
 * A session's first page: what to do next. Without data, the files to upload (with a template each);
 * with data but no scenario, a button to create one; with runs done, compare them or open the best one.
 */
export function HomePage() {
  const api = useApi();
  usePageTitle('Home');
  const sid = useSid();
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const scenarios = useQuery({ queryKey: keys.scenarios(sid), queryFn: () => api.listScenarios(sid) });
  const loading = datasets.isPending || scenarios.isPending;
  const dataset = datasets.data?.[0]?.key;
  const completed = (scenarios.data ?? []).filter((s) => s.status === 'COMPLETE');

  return (
    <>
      <h1>Home</h1>
      <ErrorNote error={datasets.error ?? scenarios.error} />
      {loading && <p role="status">Loading…</p>}
      {!loading && dataset === undefined && <UploadFirst sid={sid} />}
      {!loading && dataset !== undefined && scenarios.data?.length === 0 && (
        <section className="card next-step" aria-labelledby="next-title" data-testid="next-step" data-step="create">
          <h2 id="next-title">Next: create a scenario</h2>
          <p>
            The session has data ({datasets.data?.length === 1 ? 'dataset' : 'datasets'} {datasets.data?.map((d) => d.key).join(', ')}). A scenario runs one
            algorithm with its parameters on a dataset.
          </p>
          <Link className="button primary" to="/s/$sid/scenarios" params={{ sid }} search={{ dataset }}>
            Create a scenario on {dataset}
          </Link>
        </section>
      )}
      {!loading && scenarios.data && scenarios.data.length > 0 && (
        <RunsDone sid={sid} scenarios={scenarios.data} completed={completed} />
      )}
      {!loading && <HomePlan sid={sid} />}
    </>
  );
}

function UploadFirst({ sid }: { sid: string }) {
  const api = useApi();
  const schemas = useQuery({ queryKey: keys.schemas(sid), queryFn: () => api.schemas(sid) });
  const download = useMutation({
    mutationFn: async (v: { group: string; format: 'csv' | 'xlsx' }) => saveBlob(await api.schemaTemplate(sid, v.group, v.format), `${v.group}.${v.format}`),
  });
  return (
    <section className="card next-step" aria-labelledby="next-title" data-testid="next-step" data-step="upload">
      <h2 id="next-title">Next: upload your data</h2>
      <p>
        Upload one file per group below on the <Link to="/s/$sid/data" params={{ sid }}>Data page</Link>, as CSV, XLSX or JSON. Each template holds the
        header row: fill in one row per record, keep the header, and upload it unchanged.
      </p>
      <ErrorNote error={schemas.error ?? download.error} />
      {schemas.data?.map((g) => (
        <GroupFiles key={g.name} group={g} onDownload={(format) => download.mutate({ group: g.name, format })} busy={download.isPending} />
      ))}
      <SampleDataOffer sid={sid} />
    </section>
  );
}

function GroupFiles({ group, onDownload, busy }: { group: SchemaGroup; onDownload: (format: 'csv' | 'xlsx') => void; busy: boolean }) {
  const single = group.tables.length === 1;
  return (
    <div className="group-files" data-testid="schema-group" data-group={group.name}>
      <h3>
        <code>{group.file_names[0]}</code> {group.required ? '' : <span className="muted small">(optional file)</span>}
      </h3>
      {/* Domain authors write descriptions in markdown (`column` names in backticks): rendered, never shown raw. */}
      {group.description && (
        <div className="small">
          <Markdown source={group.description} />
        </div>
      )}
      <div className="row">
        {single && (
          <button type="button" onClick={() => onDownload('csv')} disabled={busy} aria-label={`Download the CSV template of ${group.name}`}>
            CSV template
          </button>
        )}
        <button type="button" onClick={() => onDownload('xlsx')} disabled={busy} aria-label={`Download the XLSX template of ${group.name}`}>
          XLSX template
        </button>
      </div>
      {group.tables.map((t) => (
        <div key={t.name} className="table-scroll" tabIndex={0} role="region" aria-label={`Columns of ${t.name}`}>
          <table className="plain columns-table">
            {!single && <caption>{t.name}</caption>}
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Type</th>
                <th scope="col">Unit</th>
                <th scope="col">Empty allowed</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {t.columns.map((c) => (
                <tr key={c.name}>
                  <th scope="row">
                    <code>{c.name}</code>
                  </th>
                  <td>{c.type}</td>
                  <td>{c.unit ?? '—'}</td>
                  <td>{c.nullable ? 'yes' : 'no'}</td>
                  <td className="small">
                    <InlineMarkdown
                      source={[c.key === 'primary' ? 'unique key' : c.key === 'unique' ? 'unique' : '', c.required ? '' : 'column optional', c.description ?? '']
                        .filter(Boolean)
                        .join(' · ')}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

function RunsDone({ sid, scenarios, completed }: { sid: string; scenarios: readonly Scenario[]; completed: readonly Scenario[] }) {
  const api = useApi();
  const kpis = useQuery({ queryKey: keys.kpis(sid), queryFn: () => api.kpis(sid) });
  const best = bestScenario(completed, kpis.data ?? []);
  const ids = completed.slice(0, 6).map((s) => s.id);
  if (completed.length === 0) {
    return (
      <section className="card next-step" aria-labelledby="next-title" data-testid="next-step" data-step="run">
        <h2 id="next-title">Next: run a scenario</h2>
        <p>
          {scenarios.length} {scenarios.length === 1 ? 'scenario is' : 'scenarios are'} here, none finished yet.
        </p>
        <Link className="button primary" to="/s/$sid/scenarios" params={{ sid }}>
          Open the scenarios
        </Link>
      </section>
    );
  }
  return (
    <section className="card next-step" aria-labelledby="next-title" data-testid="next-step" data-step="compare">
      <h2 id="next-title">Next: compare the results</h2>
      <p>
        {completed.length} of {scenarios.length} {scenarios.length === 1 ? 'scenario has' : 'scenarios have'} finished.
        {best && (
          <>
            {' '}
            Best by {best.kpi}: <strong>{best.scenario.tag}</strong> <StatusBadge status={best.scenario.status} />
          </>
        )}
      </p>
      <div className="row">
        {ids.length >= 2 && (
          <Link className="button primary" to="/s/$sid/compare" params={{ sid }} search={{ ids: ids.join(','), baseline: ids[0] }}>
            Compare {ids.length} finished scenarios
          </Link>
        )}
        {best && (
          <Link className="button" to="/s/$sid/scenarios" params={{ sid }} search={{ tag: best.scenario.tag }}>
            Open the best: {best.scenario.tag}
          </Link>
        )}
        <Link className="button" to="/s/$sid/scenarios" params={{ sid }}>
          All scenarios
        </Link>
      </div>
    </section>
  );
}
