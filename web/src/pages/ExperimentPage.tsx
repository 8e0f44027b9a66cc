import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { STATUSES } from '../api/types.ts';
import { scenariosNow } from '../experiments/counts.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { BatchActions } from '../experiments/BatchActions.tsx';
import { etaText, useEta } from '../experiments/eta.ts';
import { FrontScatter } from '../experiments/FrontScatter.tsx';
import { asResultRows } from '../experiments/results.ts';
import { ResultsDownloads } from '../experiments/ResultsDownloads.tsx';
import { ResultsTable } from '../experiments/ResultsTable.tsx';
import { SmallMultiples } from '../experiments/SmallMultiples.tsx';
import { useLiveMode } from '../live-mode.ts';
import { useParameterLabels } from '../params/parameter-labels.ts';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';

/**
 * One experiment: live progress (counts, a bar, an ETA), actions on all its scenarios, and its results:
 * each KPI against each axis, a scatter of two KPIs with the non-dominated front, a sortable table.
 * Events (`experiment.progress`, `.completed`) refetch it; without the stream it polls while it runs.
 */
export function ExperimentPage() {
  const api = useApi();
  const sid = useSid();
  const { eid } = useParams({ from: '/s/$sid/experiments/$eid' });
  const mode = useLiveMode();
  const client = useQueryClient();
  const navigate = useNavigate();
  const running = (c: { QUEUED: number; PROCESSING: number } | undefined) => c !== undefined && c.QUEUED + c.PROCESSING > 0;
  const experiment = useQuery({
    queryKey: keys.experiment(sid, eid),
    queryFn: () => api.experiment(sid, eid),
    // Events keep it current; polling covers a missing stream (and an event lost while reconnecting).
    refetchInterval: (q) => (running(q.state.data?.counts) ? (mode === 'polling' ? 1000 : 5000) : false),
  });
  const e = experiment.data;
  usePageTitle(e ? `Experiment ${e.name}` : 'Experiment');
  const results = useQuery({
    queryKey: [...keys.experiment(sid, eid), 'results', e?.counts.COMPLETE ?? 0, e?.counts.FAILED ?? 0],
    queryFn: async () => asResultRows(await api.experimentResults(sid, eid)),
    enabled: e !== undefined,
    placeholderData: (previous) => previous,
  });
  const finished = e ? e.counts.COMPLETE + e.counts.FAILED : 0;
  // The scenarios it has now: `size` is what its axes and repeats made, and a scenario deleted since
  // leaves the counts (and every action on all of them) one short of it.
  const total = e ? scenariosNow(e.counts) : 0;
  const eta = useEta(finished, total, experiment.dataUpdatedAt);
  const datasetAxis = e?.axes.dataset_key;
  const labelOf = useParameterLabels(sid, e ? [e.algo_name] : [], e?.dataset_key ? [e.dataset_key] : Array.isArray(datasetAxis) ? datasetAxis.map(String) : []);

  if (!e) return <>{experiment.error ? <ErrorNote error={experiment.error} /> : <p role="status">Loading the experiment…</p>}</>;
  const axisPaths = Object.keys(e.axes);
  const kpis = Object.keys(results.data?.[0]?.kpis ?? e.summary?.best ?? {});
  return (
    <>
      <h1>Experiment “{e.name}”</h1>
      <p className="muted small">
        {e.algo_name} · {e.dataset_key ?? 'several datasets'} ·{' '}
        <span data-testid="experiment-size">
          {total} scenario{total === 1 ? '' : 's'}
          {total < e.size && ` (of the ${e.size} it made: ${e.size - total} deleted)`}
        </span>{' '}
        · varies {axisPaths.map(labelOf).join(', ')} · {e.repeats} repeat{e.repeats === 1 ? '' : 's'}
      </p>
      <section className="card" aria-labelledby="progress-title">
        <h2 id="progress-title" style={{ marginTop: 0 }}>
          Progress
        </h2>
        <ul className="row small" data-testid="experiment-counts" style={{ listStyle: 'none', padding: 0 }}>
          {STATUSES.map((s) => (
            <li key={s} data-status={s}>
              {s} <strong>{e.counts[s]}</strong>
            </li>
          ))}
        </ul>
        <div className="row small">
          <div style={{ flex: 1 }}>
            <ProgressBar value={e.progress} label={`Progress of ${e.name}`} />
          </div>
          <span data-testid="experiment-progress">{Math.round(e.progress * 100)}%</span>
        </div>
        <p className="small" aria-live="polite" data-testid="experiment-eta">
          {running(e.counts) ? etaText(eta) || 'estimating the time left…' : finished === total && total > 0 ? 'All runs finished.' : ''}
        </p>
        <BatchActions
          count={total}
          what={`all of experiment “${e.name}”`}
          act={(action) => api.actOnExperiment(sid, eid, action)}
          onDone={(action) => {
            void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
            if (action === 'delete') {
              void client.invalidateQueries({ queryKey: keys.experiments(sid) });
              void navigate({ to: '/s/$sid/experiments', params: { sid } });
            } else void client.invalidateQueries({ queryKey: keys.experiment(sid, eid) });
          }}
        />
      </section>
      <section aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        {e.summary ? (
          <>
            <h3>Each KPI against each axis (mean, band from min to max)</h3>
            <SmallMultiples axes={e.summary.axes} kpis={kpis} labelOf={labelOf} />
            <h3>Two KPIs</h3>
            <FrontScatter sid={sid} rows={results.data ?? []} kpis={kpis} fronts={e.summary.fronts} />
          </>
        ) : (
          <p className="muted">The charts appear once a scenario is complete.</p>
        )}
        <h3>All scenarios</h3>
        <ResultsDownloads sid={sid} eid={eid} name={e.name} />
        <ErrorNote error={results.error} />
        <ResultsTable sid={sid} rows={results.data ?? []} axes={axisPaths} kpis={kpis} labelOf={(column) => (axisPaths.includes(column) ? labelOf(column) : column)} />
      </section>
    </>
  );
}
