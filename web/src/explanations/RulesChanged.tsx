import { useQueries } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useApi } from '../api/context.tsx';
import { COMPARED_VIOLATIONS, explanationKey, scenarioViolations, type RowRef, type Violation } from '../api/explanations.ts';
import type { CompareResult } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { useSid } from '../session.ts';
import { diffViolations } from './violation-diff.ts';
import { rowText, ViolationItem } from './ViolationItem.tsx';

/** Each list shows this many; the count says how many more there are. */
const LISTED = 20;

/**
 * The rules a plan breaks that the baseline does not, and those it no longer breaks: both scenarios'
 * violations read (up to `COMPARED_VIOLATIONS` each) and told apart by rule and rows.
 */
export function RulesChanged({ result }: { result: CompareResult }) {
  const api = useApi();
  const sid = useSid();
  const complete = result.scenarios.filter((s) => s.status === 'COMPLETE');
  const baseline = complete.find((s) => s.id === result.baseline);
  const others = baseline ? complete.filter((s) => s.id !== baseline.id) : [];
  const read = useQueries({
    queries: (baseline ? [baseline, ...others] : []).map((s) => ({
      queryKey: [...explanationKey(sid, s.id, COMPARED_VIOLATIONS), 'all'],
      queryFn: () => scenarioViolations(api, sid, s.id),
    })),
  });
  if (!baseline || others.length === 0) return null;
  const [base, ...rest] = read;
  const error = read.find((q) => q.error)?.error;
  const rowLink = (dataset: string) => (r: RowRef) => (
    <Link to="/s/$sid/data" params={{ sid }} search={{ dataset, table: r.table, row: String(r.key) }}>
      {rowText(r)}
    </Link>
  );
  return (
    <section className="card" aria-labelledby="rules-changed-title" data-testid="rules-changed">
      <h2 id="rules-changed-title" style={{ marginTop: 0 }}>
        Rules broken: what changed
      </h2>
      <ErrorNote error={error ?? null} />
      {others.map((s, i) => {
        const mine = rest[i]?.data;
        if (!base?.data || !mine) return read.some((q) => q.isPending) && i === 0 ? <p key={s.id} role="status">Reading the rules each plan breaks…</p> : null;
        const diff = diffViolations(base.data.violations, mine.violations);
        const partial = base.data.count > base.data.violations.length || mine.count > mine.violations.length;
        return (
          <div key={s.id} data-testid="rules-diff" data-scenario={s.tag}>
            <h3>
              {s.tag} against {baseline.tag}
            </h3>
            <p data-testid="rules-diff-sentence">
              {diff.appeared.length === 0 && diff.disappeared.length === 0
                ? `${s.tag} breaks the same rules as ${baseline.tag}${diff.kept === 0 ? ' (none)' : ''}.`
                : `${s.tag} breaks ${count(diff.appeared.length)} that ${baseline.tag} keeps, and keeps ${count(diff.disappeared.length)} that ${baseline.tag} breaks; ${diff.kept.toLocaleString()} broken in both.`}
              {partial && ` (Only the first ${COMPARED_VIOLATIONS.toLocaleString()} rules each plan breaks were compared.)`}
            </p>
            <Listed title={`Newly broken in ${s.tag}`} testId="appeared" violations={diff.appeared} row={rowLink(s.dataset_key)} />
            <Listed title={`No longer broken in ${s.tag}`} testId="disappeared" violations={diff.disappeared} row={rowLink(baseline.dataset_key)} />
          </div>
        );
      })}
    </section>
  );
}

const count = (n: number) => (n === 1 ? 'one rule' : `${n.toLocaleString()} rules`);

function Listed({ title, testId, violations, row }: { title: string; testId: string; violations: readonly Violation[]; row: (r: RowRef) => ReactNode }) {
  if (violations.length === 0) return null;
  return (
    <div data-testid={testId}>
      <h4>{title}</h4>
      <ol className="violations" style={{ listStyle: 'none', padding: 0 }}>
        {violations.slice(0, LISTED).map((v, i) => (
          <ViolationItem key={i} violation={v} row={row} />
        ))}
      </ol>
      {violations.length > LISTED && <p className="muted small">and {(violations.length - LISTED).toLocaleString()} more.</p>}
    </div>
  );
}
