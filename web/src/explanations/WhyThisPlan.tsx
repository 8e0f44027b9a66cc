import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { explanationKey, scenarioExplanation, VIOLATION_PAGE } from '../api/explanations.ts';
import type { Scenario } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { KpiTermsTable } from './KpiTermsTable.tsx';
import { rowText, ViolationItem } from './ViolationItem.tsx';
import { violationCountSentence } from './words.ts';

/**
 * "Why this plan" on a complete scenario's page: what makes up each KPI (its terms, largest first, and
 * what they leave unexplained), whether the plan can be carried out at all, and the rules it breaks,
 * hard first, a page at a time. Each row a rule names opens in the Data page; What if… opens a branch
 * of this scenario with the editor filtered to those rows.
 */
export function WhyThisPlan({ sid, scenario: s, pageSize = VIOLATION_PAGE }: { sid: string; scenario: Scenario; pageSize?: number }) {
  const api = useApi();
  const pages = useInfiniteQuery({
    queryKey: [...explanationKey(sid, s.id, pageSize), s.finished_at],
    queryFn: ({ pageParam }) => scenarioExplanation(api, sid, s.id, pageSize, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const first = pages.data?.pages[0];
  const violations = pages.data?.pages.flatMap((p) => p.violations) ?? [];
  const unitOf = (kpi: string) => Object.values(s.kpis).find((k) => k.name === kpi)?.unit;
  const explainsNothing = first !== undefined && first.kpis.length === 0 && first.violation_count === 0 && !first.infeasible;

  return (
    <section className="card" aria-labelledby="why-title" data-testid="why-this-plan">
      <h2 id="why-title" style={{ marginTop: 0 }}>
        Why this plan
      </h2>
      <ErrorNote error={pages.error} />
      {pages.isPending && <p role="status">Loading the explanation…</p>}
      {explainsNothing && <p className="muted">The algorithm gave no explanation of this plan.</p>}
      {first?.infeasible && (
        <p className="alert error" data-testid="infeasible">
          <strong>Infeasible:</strong> this plan breaks a rule that must hold, so it cannot be carried out as it is. It is still the algorithm&apos;s
          best answer: the rules below say where it breaks.
        </p>
      )}
      {first && first.kpis.length > 0 && (
        <>
          <h3>What makes up each KPI</h3>
          {first.kpis.map((k) => (
            <KpiTermsTable key={k.kpi} kpi={k} unit={unitOf(k.kpi)} />
          ))}
        </>
      )}
      {first && !explainsNothing && (
        <>
          <h3>Rules the plan breaks</h3>
          <p data-testid="violation-count">{violationCountSentence(first.violation_count, first.infeasible)}</p>
          {violations.length > 0 && (
            <ol className="violations" style={{ listStyle: 'none', padding: 0 }}>
              {violations.map((v, i) => (
                <ViolationItem
                  key={i}
                  violation={v}
                  row={(r) => (
                    <Link to="/s/$sid/data" params={{ sid }} search={{ dataset: s.input_data_id, table: r.table, row: String(r.key) }} data-testid="row-link">
                      {rowText(r)}
                    </Link>
                  )}
                  action={
                    v.rows.length > 0 && (
                      <Link
                        className="button"
                        to="/s/$sid/scenarios/$id/what-if"
                        params={{ sid, id: s.id }}
                        search={{ rows: v.rows }}
                        aria-label={`What if… with the rows of: ${v.message}`}
                      >
                        What if…
                      </Link>
                    )
                  }
                />
              ))}
            </ol>
          )}
          {pages.hasNextPage && (
            <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
              {pages.isFetchingNextPage ? 'Loading…' : `Show more (${violations.length.toLocaleString()} of ${first.violation_count.toLocaleString()} shown)`}
            </button>
          )}
        </>
      )}
    </section>
  );
}
