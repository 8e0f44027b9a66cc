import { ScenarioLink } from '../components/ScenarioLink.tsx';
import { formatParam } from '../format.ts';
import type { LabelOf } from '../params/parameter-labels.ts';
import { rowCount } from '../whatif/edit-sentence.ts';
import { EditSentences } from '../whatif/EditSentences.tsx';
import { sameInputs, type DataDifference, type ScenarioInputs } from './inputs.ts';

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
                        {labelOf(p.name)}: {formatParam(p.baseline)} → <strong>{formatParam(p.value)}</strong>
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

function DataDifferences({ data }: { data: DataDifference }) {
  if (data.kind === 'same') return <p className="muted small">Same data.</p>;
  if (data.kind === 'edits') {
    return (
      <>
        <h4 className="facts-heading">Data edits</h4>
        <EditSentences edits={data.edits} rows={data.edits.map((e) => e.rows)} testId="input-edits" />
      </>
    );
  }
  return (
    <>
      <h4 className="facts-heading">Other data</h4>
      <ul className="param-changes" data-testid="input-tables">
        {data.tables.map((t) => (
          <li key={t.table}>
            <strong>{t.table}</strong>: {rowCount(t.added)} added, {rowCount(t.removed)} removed, {rowCount(t.changed)} changed
            {t.examples.length > 0 && (
              <details>
                <summary>Examples ({t.examples.length})</summary>
                <ul className="small">
                  {t.examples.map((x, i) => (
                    <li key={i}>
                      {x.change}: {Object.entries(x.key).map(([k, v]) => `${k} ${formatParam(v)}`).join(', ')}
                      {x.values && ` (${Object.entries(x.values).map(([k, v]) => `${k} ${formatParam(v)}`).join(', ')})`}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
