import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { gate as readGate, gateKeys } from '../api/gates.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';
import { SaveGateReportControl } from './SaveGateReportControl.tsx';
import { DifferenceStrips, VerdictTable } from './VerdictTable.tsx';

/** One gate: its configuration, live progress while its runs go on, then the verdict table, the paired differences, and "Save as report…". */
export function GatePage() {
  const api = useApi();
  const sid = useSid();
  const { gid } = useParams({ from: '/s/$sid/gates/$gid' });
  const query = useQuery({
    queryKey: gateKeys.one(sid, gid),
    queryFn: () => readGate(api, sid, gid),
    // Polled while running; a complete gate's verdict only changes when one of its runs is rerun.
    refetchInterval: (q) => (q.state.data?.status === 'complete' ? false : 1000),
  });
  const g = query.data;
  usePageTitle(g ? `Gate ${g.name}` : 'Gate');
  if (!g) return <ErrorNote error={query.error} />;
  const side = (s: typeof g.baseline) => `${s.algo_name} ${JSON.stringify(s.algo_params)}`;
  return (
    <>
      <h1>Gate {g.name}</h1>
      <p>
        Baseline: <code>{side(g.baseline)}</code>
        <br />
        Candidate: <code>{side(g.candidate)}</code>
        <br />
        <span className="muted small">
          On {g.dataset_keys.join(', ')} · {g.repeats} pair{g.repeats === 1 ? '' : 's'} each · {g.size} runs · alpha {g.alpha}
        </span>
      </p>
      {g.status === 'running' && <ProgressBar value={g.progress} label="gate progress" />}
      {g.status === 'running' && (
        <p className="muted" data-testid="gate-progress">
          {g.counts.COMPLETE + g.counts.FAILED} of {g.size} runs done
        </p>
      )}
      {g.verdict !== null && (
        <div className="row">
          <h2 data-testid="gate-verdict">
            Verdict: <strong>{g.verdict}</strong>
          </h2>
          <span className="spacer" />
          <SaveGateReportControl sid={sid} gid={g.id} name={g.name} />
        </div>
      )}
      {g.kpis && <VerdictTable lines={g.kpis} alpha={g.alpha} />}
      {g.kpis && (
        <section aria-labelledby="differences-title">
          <h2 id="differences-title">Paired differences</h2>
          <DifferenceStrips lines={g.kpis} />
        </section>
      )}
    </>
  );
}
