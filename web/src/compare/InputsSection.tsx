import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { formatParam } from '../format.ts';
import type { LabelOf } from '../params/parameter-labels.ts';
import { EditSentences } from '../whatif/EditSentences.tsx';
import { appliedEdits, type ScenarioInputs } from '../api/what-if.ts';
import { sameInputs, type InputData } from './inputs.ts';
import { TableSummary } from './TableSummary.tsx';

/**
 * What each compared scenario was given differently from the baseline, beside what it did: the
 * parameters set otherwise (baseline → this) and the data (the edits made to the baseline's dataset,
 * or, for unrelated datasets, rows added, removed and changed per table with examples).
 */
export function InputsSection({ inputs, baselineTag, tagOf, labelOf }: {
  inputs: readonly ScenarioInputs[];
  baselineTag: string;
  tagOf: (id: string) => string;
  labelOf: LabelOf;
}) {
  return (
    <section className="card" aria-labelledby="inputs-title" data-testid="inputs">
      <h2 id="inputs-title" style={{ marginTop: 0 }}>
        Inputs <span className="muted small">(what differs from {baselineTag})</span>
      </h2>
      {inputs.length === 0 && <p className="muted">Nothing to compare against the baseline.</p>}
      <div className="inputs-grid">
        {inputs.map((entry) => (
          <article key={entry.scenario_id} className="inputs-card" data-testid="scenario-inputs" data-scenario={tagOf(entry.scenario_id)} aria-label={`Inputs of ${tagOf(entry.scenario_id)}`}>
            <h3 style={{ marginTop: 0 }}>
              <ScenarioLink id={entry.scenario_id} tag={tagOf(entry.scenario_id)} />
            </h3>
            {sameInputs(entry) ? (
              <p className="muted small">The baseline’s inputs: same parameters, same data.</p>
            ) : (
              <>
                {entry.parameters.length > 0 && (
                  <ul className="param-changes" data-testid="input-parameters">
                    {entry.parameters.map((p) => (
                      <li key={p.name}>
                        {p.name === 'algorithm' ? 'Algorithm' : labelOf(p.name)}: {formatParam(p.from)} → <strong>{formatParam(p.to)}</strong>
                      </li>
                    ))}
                  </ul>
                )}
                <DataDifferences data={entry.data} />
              </>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}

function DataDifferences({ data }: { data: InputData | null }) {
  if (data === null) return <p className="muted small">Same data.</p>;
  if (data.relation === 'family') {
    const added = appliedEdits(data.to_steps.flatMap((step) => step.edits));
    const baselines = appliedEdits(data.from_steps.flatMap((step) => step.edits));
    return (
      <>
        <h4 className="facts-heading">
          Data: {data.to}
          {data.common !== data.to && <span className="muted small"> (from {data.common})</span>}
        </h4>
        {added.length > 0 && <EditSentences edits={added} rows={added.map((e) => e.rows)} testId="input-edits" />}
        {baselines.length > 0 && (
          <>
            <p className="small" style={{ margin: '0.25rem 0' }}>
              The baseline’s data ({data.from}) has edits of its own that this one lacks:
            </p>
            <EditSentences edits={baselines} rows={baselines.map((e) => e.rows)} testId="baseline-edits" />
          </>
        )}
      </>
    );
  }
  return (
    <>
      <h4 className="facts-heading">
        Other data: {data.to} <span className="muted small">(the baseline’s: {data.from})</span>
      </h4>
      <ul className="param-changes" data-testid="input-tables">
        {data.tables.map((t) => (
          <li key={t.table}>
            <TableSummary diff={t} />
          </li>
        ))}
      </ul>
    </>
  );
}
