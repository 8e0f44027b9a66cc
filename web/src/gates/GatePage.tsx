import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { gate as readGate, gateKeys } from '../api/gates.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { usePageTitle } from '../page-title.ts';
import { useSid } from '../session.ts';
import { DifferenceStrip, IntervalBar } from './charts.tsx';

const num = (v: number | null) => (v === null ? '-' : Number.isInteger(v) ? String(v) : v.toPrecision(4));

/** One gate: its configuration, live progress while its runs go on, then the verdict table and the paired differences. */
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
        <h2 data-testid="gate-verdict">
          Verdict: <strong>{g.verdict}</strong>
        </h2>
      )}
      {g.kpis && (
        <table data-testid="gate-table">
          <thead>
            <tr>
              <th>KPI</th>
              <th>verdict</th>
              <th>mean diff</th>
              <th>median diff</th>
              <th>interval ({Math.round((1 - g.alpha) * 100)} %)</th>
              <th>p</th>
              <th>n</th>
            </tr>
          </thead>
          <tbody>
            {g.kpis.map((line) => (
              <tr key={line.kpi}>
                <td>{line.kpi}</td>
                <td>{line.verdict}</td>
                <td>{num(line.mean_difference)}</td>
                <td>{num(line.median_difference)}</td>
                <td>
                  <IntervalBar line={line} /> <span className="muted small">{line.ci ? `[${num(line.ci[0]!)}, ${num(line.ci[1]!)}]` : ''}</span>
                </td>
                <td>{line.p_value === null ? '-' : line.p_value.toPrecision(3)}</td>
                <td>{line.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {g.kpis && (
        <section aria-labelledby="differences-title">
          <h2 id="differences-title">Paired differences</h2>
          {g.kpis.map((line) => (
            <DifferenceStrip key={line.kpi} line={line} />
          ))}
        </section>
      )}
    </>
  );
}
