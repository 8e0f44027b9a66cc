import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { ExportFormat } from '../api/client.ts';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { sendScenarioAction, type ScenarioAction } from '../api/scenario-action.ts';
import { downloadResult } from '../api/result-download.ts';
import type { Scenario } from '../api/types.ts';
import { resetNeedsConfirm } from '../components/ResetScenarioDialog.tsx';
import { ScenarioConfirmations, type Confirming } from '../components/ScenarioConfirmations.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { UnavailablePage } from '../components/UnavailablePage.tsx';
import { RunProgress } from '../components/RunProgress.tsx';
import { RunReportLine } from '../components/RunReportLine.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { saveBlob } from '../csv.ts';
import { formatNumber, formatParam, formatTime } from '../format.ts';
import { usePageTitle } from '../page-title.ts';
import { humanise } from '../params/parameter-labels.ts';
import { ACTIVE } from '../scenarios/active.ts';
import { bestInSession } from '../scenarios/best-values.ts';
import { formatDuration, runDuration } from '../scenarios/run-duration.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { useSid } from '../session.ts';
import { ViewList } from '../views/ViewList.tsx';
import { ChainLine, LineageSection } from '../whatif/ScenarioChain.tsx';
import { PlanBadge } from '../decisions/PlanBadge.tsx';
import { PublishControl } from '../decisions/PublishControl.tsx';
import { ScenarioStale } from '../cycles/ScenarioStale.tsx';
import { usePlanLock } from '../decisions/PlanLock.tsx';
import { usePlanScenarioId } from '../decisions/use-plan.ts';
import { WhyThisPlan } from '../explanations/WhyThisPlan.tsx';
import { RunLogPanel } from './RunLogPanel.tsx';

const DIRECTION = { HIGHER: 'higher is better', LOWER: 'lower is better', AT_LEAST: 'at least', AT_MOST: 'at most' } as const;

/**
 * One scenario: what it is (tag, algorithm, dataset, every parameter), how its run went (status,
 * progress and report, duration, seed, logs), its KPIs against the session's best, the domain's result
 * views, downloads, and its actions. The session's live events keep it current.
 */
export function ScenarioPage() {
  const api = useApi();
  const sid = useSid();
  const params: { id?: string } = useParams({ strict: false });
  const id = params.id ?? '';
  // The session's list is what live events update in place (status, progress, report): read it first.
  const list = useScenarioList(sid);
  const single = useQuery({ queryKey: keys.scenario(sid, id), queryFn: () => api.scenario(sid, id), retry: false });
  const scenario = list.data?.find((s) => s.id === id) ?? single.data;
  usePageTitle(scenario ? `Scenario ${scenario.tag}` : 'Scenario');

  if (!scenario) {
    return (
      <UnavailablePage
        heading="Scenario"
        lookupError={single.error}
        otherError={list.error}
        notFound={
          <>
            There is no scenario {id} in this session. <Link to="/s/$sid/scenarios" params={{ sid }}>All scenarios</Link>
          </>
        }
        loading={!single.error}
      />
    );
  }
  return <ScenarioDetails sid={sid} scenario={scenario} session={list.data ?? []} />;
}

function ScenarioDetails({ sid, scenario: s, session }: { sid: string; scenario: Scenario; session: readonly Scenario[] }) {
  const active = ACTIVE.has(s.status);
  const complete = s.status === 'COMPLETE';
  const runAndSetup = (
    <div className="scenario-top">
      <RunSection scenario={s} active={active} />
      <ParametersSection sid={sid} scenario={s} />
    </div>
  );
  return (
    <>
      <p className="small" style={{ margin: '0 0 0.25rem' }}>
        <Link to="/s/$sid/scenarios" params={{ sid }}>
          Scenarios
        </Link>{' '}
        / {s.tag}
      </p>
      {/* The actions beside the title: one line fewer above the KPIs and the result. */}
      <div className="row scenario-head">
        <h1 style={{ margin: 0 }} data-testid="scenario-title">
          {s.tag}
        </h1>
        <StatusBadge status={s.status} />
        <PlanBadge sid={sid} scenarioId={s.id} />
        <span className="spacer" />
        <ScenarioActions sid={sid} scenario={s} />
      </div>
      <ChainLine sid={sid} id={s.id} />
      <ScenarioStale sid={sid} scenario={s} />
      {/* Until the run is complete its progress leads; then what it gave does (KPIs and the result's
          main view above the fold at 1440 x 900), and how it was set up and ran follows. */}
      {!complete && runAndSetup}
      {complete && <KpiSection scenario={s} session={session} />}
      <section className="card" aria-labelledby="views-title">
        <div className="row">
          <h2 id="views-title" style={{ margin: 0 }}>
            Result
          </h2>
          <span className="spacer" />
          {complete && <ResultDownloads sid={sid} scenario={s} />}
        </div>
        {complete ? (
          <ViewList target={{ of: 'scenario', sid, id: s.id }} empty="The domain declares no views of this result." />
        ) : (
          <p className="muted">The result and its views appear when the run is complete.</p>
        )}
      </section>
      {complete && <WhyThisPlan sid={sid} scenario={s} />}
      {complete && runAndSetup}
      <LineageSection sid={sid} id={s.id} />
      {s.status !== 'CREATED' && <LogsSection sid={sid} scenario={s} active={active} />}
    </>
  );
}

function RunSection({ scenario: s, active }: { scenario: Scenario; active: boolean }) {
  return (
    <section className="card" aria-labelledby="run-title">
      <h2 id="run-title" style={{ marginTop: 0 }}>
        Run
      </h2>
      <RunProgress scenario={s} active={active} />
      <RunReportLine report={s.report} />
      {s.status === 'FAILED' && s.error && (
        <div className="alert error" data-testid="failure">
          {s.error.code && <code>{s.error.code}</code>} {s.error.message}
        </div>
      )}
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="run-status">{s.status.toLowerCase()}</dd>
        <dt>Duration</dt>
        <dd data-testid="duration">{formatDuration(runDuration(s))}</dd>
        {/* Not the algorithm's own `seed` parameter (under Setup, when it declares one): this one is drawn per run. */}
        <dt title="The random seed of this run">
          Run seed
          <span className="hint">Drawn for each run; the repeats of an experiment each run with their own.</span>
        </dt>
        <dd data-testid="seed">{s.seed ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{formatTime(s.created_at)}</dd>
        <dt>Started</dt>
        <dd>{formatTime(s.started_at)}</dd>
        <dt>Finished</dt>
        <dd>{formatTime(s.finished_at)}</dd>
      </dl>
    </section>
  );
}

function ParametersSection({ sid, scenario: s }: { sid: string; scenario: Scenario }) {
  const api = useApi();
  // The dataset's parameter descriptors give the data parameters their descriptions.
  const dataParams = useQuery({
    queryKey: keys.dataParameters(sid, s.input_data_id),
    queryFn: () => api.dataParameters(sid, s.input_data_id),
    retry: false,
  });
  const dataDescriptions = new Map((dataParams.data?.parameters ?? []).map((d) => [d.name, d.description]));
  const dataLabels = new Map((dataParams.data?.parameters ?? []).map((d) => [d.name, d.label]));
  const dataEntries = Object.entries(s.data_parameters ?? {});
  return (
    <section className="card" aria-labelledby="params-title">
      <h2 id="params-title" style={{ marginTop: 0 }}>
        Setup
      </h2>
      <div data-testid="parameters">
        <dl className="facts">
          <dt>Algorithm</dt>
          <dd>{s.algorithm.name}</dd>
          <dt>Dataset</dt>
          <dd>
            <Link to="/s/$sid/data" params={{ sid }}>
              {s.input_data_id}
            </Link>
          </dd>
        </dl>
        {/* Headed by whose parameters they are, so that a `seed` here reads as the algorithm's setting, not the run's seed. */}
        {s.algorithm.parameters.length > 0 && (
          <>
            <h3 className="facts-heading">Parameters of {s.algorithm.name}</h3>
            <dl className="facts" data-testid="algorithm-parameters">
              {s.algorithm.parameters.map((p) => (
                <ParamFact key={p.name} name={p.name} label={p.label} description={p.description} value={p.value} />
              ))}
            </dl>
          </>
        )}
        {dataEntries.length > 0 && (
          <>
            <h3 className="facts-heading">Data parameters</h3>
            <dl className="facts" data-testid="data-parameters">
              {dataEntries.map(([name, value]) => (
                <ParamFact key={name} name={name} label={dataLabels.get(name)} description={dataDescriptions.get(name)} value={value} />
              ))}
            </dl>
          </>
        )}
      </div>
    </section>
  );
}

/** One parameter: its declared label (the name humanised for an older server), exact value, and its description. */
function ParamFact({ name, label, description, value }: { name: string; label: string | undefined; description: string | undefined; value: unknown }) {
  return (
    <>
      <dt title={name}>
        {label ?? humanise(name)}
        {description && <span className="hint">{description}</span>}
      </dt>
      <dd data-param={name}>{formatParam(value)}</dd>
    </>
  );
}

function KpiSection({ scenario: s, session }: { scenario: Scenario; session: readonly Scenario[] }) {
  const best = bestInSession(session.some((x) => x.id === s.id) ? session : [...session, s]);
  const kpis = Object.values(s.kpis);
  return (
    <section aria-labelledby="kpis-title">
      <h2 id="kpis-title">KPIs</h2>
      {kpis.length === 0 ? (
        <p className="muted">This algorithm reports no KPIs.</p>
      ) : (
        <div className="grid kpi-grid">
          {kpis.map((k) => {
            const isBest = k.value !== null && best.get(k.name) === k.value;
            return (
              <div key={k.name} className="kpi-card" data-testid="kpi" data-kpi={k.name} data-best={isBest}>
                <div className="small muted">
                  {k.name}
                  {isBest && <strong className="best"> ★ best in session</strong>}
                </div>
                <div className="value">
                  {formatNumber(k.value)} <span className="small">{k.unit}</span>
                </div>
                <div className="small muted">
                  {DIRECTION[k.better_when]}
                  {k.threshold !== null && ` ${formatNumber(k.threshold)} ${k.unit}`}
                </div>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}

function ResultDownloads({ sid, scenario: s }: { sid: string; scenario: Scenario }) {
  const api = useApi();
  const download = useMutation({
    mutationFn: async (format: ExportFormat) => saveBlob(await downloadResult(api, sid, s.id, format), `${s.tag}.${format}`),
  });
  return (
    <>
      <button type="button" onClick={() => download.mutate('csv')} disabled={download.isPending} aria-label={`Download the result of ${s.tag} as CSV`}>
        CSV
      </button>
      <button type="button" onClick={() => download.mutate('xlsx')} disabled={download.isPending} aria-label={`Download the result of ${s.tag} as XLSX`}>
        XLSX
      </button>
      {download.error && (
        <div style={{ flexBasis: '100%' }}>
          <ErrorNote error={download.error} />
        </div>
      )}
    </>
  );
}

function LogsSection({ sid, scenario: s, active }: { sid: string; scenario: Scenario; active: boolean }) {
  const [unavailable, setUnavailable] = useState(false);
  if (unavailable) return null;
  return (
    <section className="card" aria-labelledby="logs-title">
      <h2 id="logs-title" style={{ marginTop: 0 }}>
        Logs
      </h2>
      <RunLogPanel sid={sid} id={s.id} running={active} onUnavailable={() => setUnavailable(true)} />
    </section>
  );
}

function ScenarioActions({ sid, scenario: s }: { sid: string; scenario: Scenario }) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const active = ACTIVE.has(s.status);
  // The published plan cannot be reset or deleted (the server refuses): its buttons say why instead.
  const lock = usePlanLock(usePlanScenarioId(sid) === s.id);
  const act = useMutation({
    mutationFn: (action: ScenarioAction) => sendScenarioAction(api, sid, s.id, action),
    onSuccess: (_r, action) => {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.scenario(sid, s.id) });
      void client.invalidateQueries({ queryKey: keys.views(sid, 'scenario', s.id) });
      if (action === 'reset') setConfirming(null);
      if (action === 'delete') {
        setConfirming(null);
        void navigate({ to: '/s/$sid/scenarios', params: { sid } });
      }
    },
  });
  return (
    <>
      <div className="row" role="group" aria-label="Actions">
        {s.status === 'CREATED' && (
          <button type="button" className="primary" onClick={() => act.mutate('run')} disabled={act.isPending}>
            Run
          </button>
        )}
        {active && (
          <button type="button" onClick={() => act.mutate('cancel')} disabled={act.isPending}>
            Cancel
          </button>
        )}
        {(s.status === 'COMPLETE' || s.status === 'FAILED') && (
          <button
            type="button"
            onClick={() => (resetNeedsConfirm(s) ? setConfirming('reset') : act.mutate('reset'))}
            disabled={act.isPending || lock.note !== null}
            aria-describedby={lock.describedBy}
          >
            Reset
          </button>
        )}
        <Link className="button" to="/s/$sid/scenarios/$id/what-if" params={{ sid, id: s.id }}>
          What if…
        </Link>
        <PublishControl sid={sid} scenario={s} />
        <Link className="button" to="/s/$sid/scenarios" params={{ sid }} search={{ copy: s.id }}>
          Copy as new scenario
        </Link>
        <button type="button" className="danger" onClick={() => setConfirming('delete')} disabled={lock.note !== null} aria-describedby={lock.describedBy}>
          Delete
        </button>
      </div>
      {lock.note}
      {confirming === null && <ErrorNote error={act.error} />}
      <ScenarioConfirmations scenario={s} active={active} confirming={confirming} act={act} onDismiss={() => setConfirming(null)} />
    </>
  );
}
