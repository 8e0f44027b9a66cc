import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/context.tsx';
import { createGate, gateKeys, type NewGate } from '../api/gates.ts';
import { keys } from '../api/keys.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';

type InputsMode = 'datasets' | 'derived_from' | 'plan_versions';

interface SideDraft {
  algo: string;
  params: string;
}

/** Parameters typed as a JSON object; an unparsable text is shown as an error, never sent. */
function parseParams(text: string, label: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${label}: parameters must be a JSON object`);
  return value as Record<string, unknown>;
}

/** The form of a new gate: both sides, the inputs, repeats and alpha, with the number of runs it will make. */
export function GateForm({ sid, onCreated }: { sid: string; onCreated: (gid: string) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const algorithms = useQuery({ queryKey: keys.algorithms(sid), queryFn: () => api.algorithms(sid) });
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const [name, setName] = useState('');
  const [baseline, setBaseline] = useState<SideDraft>({ algo: '', params: '' });
  const [candidate, setCandidate] = useState<SideDraft>({ algo: '', params: '' });
  const [mode, setMode] = useState<InputsMode>('datasets');
  const [picked, setPicked] = useState<string[]>([]);
  const [derivedFrom, setDerivedFrom] = useState('');
  const [planVersions, setPlanVersions] = useState(3);
  const [repeats, setRepeats] = useState(10);
  const [alpha, setAlpha] = useState(0.05);
  const [formError, setFormError] = useState<unknown>(null);
  const create = useMutation({
    mutationFn: (body: NewGate) => createGate(api, sid, body),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: gateKeys.all(sid) });
      onCreated(created.id);
    },
  });
  const names = (algorithms.data ?? []).map((a) => a.name);
  const keysOf = (datasets.data ?? []).map((d) => d.key);
  // What the server will make: inputs × repeats × 2 (for the plan history, at most n inputs).
  const inputCount = mode === 'datasets' ? picked.length : mode === 'plan_versions' ? planVersions : null;
  const runs = inputCount === null ? null : inputCount * repeats * 2;

  const submit = () => {
    setFormError(null);
    try {
      const inputs: NewGate['inputs'] = mode === 'datasets' ? { datasets: picked } : mode === 'derived_from' ? { derived_from: derivedFrom } : { plan_versions: planVersions };
      create.mutate({
        name,
        baseline: { algo_name: baseline.algo, algo_params: parseParams(baseline.params, 'baseline') },
        candidate: { algo_name: candidate.algo, algo_params: parseParams(candidate.params, 'candidate') },
        inputs,
        repeats,
        alpha,
      });
    } catch (err) {
      setFormError(err);
    }
  };

  const side = (label: string, draft: SideDraft, set: (d: SideDraft) => void) => (
    <fieldset>
      <legend>{label}</legend>
      <label>
        Algorithm{' '}
        <select aria-label={`${label} algorithm`} value={draft.algo} onChange={(e) => set({ ...draft, algo: e.target.value })}>
          <option value="">choose…</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        Parameters (JSON){' '}
        <input aria-label={`${label} parameters`} placeholder='{"iterations": 200}' value={draft.params} onChange={(e) => set({ ...draft, params: e.target.value })} />
      </label>
    </fieldset>
  );

  return (
    <section aria-labelledby="new-gate-title">
      <h2 id="new-gate-title">New gate</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label>
          Name <input aria-label="gate name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {side('Baseline', baseline, setBaseline)}
        {side('Candidate', candidate, setCandidate)}
        <fieldset>
          <legend>Inputs</legend>
          <label>
            <input type="radio" name="inputs" checked={mode === 'datasets'} onChange={() => setMode('datasets')} /> datasets
          </label>{' '}
          <label>
            <input type="radio" name="inputs" checked={mode === 'derived_from'} onChange={() => setMode('derived_from')} /> every what-if derived from
          </label>{' '}
          <label>
            <input type="radio" name="inputs" checked={mode === 'plan_versions'} onChange={() => setMode('plan_versions')} /> data of the last published plans
          </label>
          {mode === 'datasets' && (
            <div>
              {keysOf.map((key) => (
                <label key={key}>
                  <input
                    type="checkbox"
                    checked={picked.includes(key)}
                    onChange={(e) => setPicked(e.target.checked ? [...picked, key] : picked.filter((k) => k !== key))}
                  />{' '}
                  {key}{' '}
                </label>
              ))}
            </div>
          )}
          {mode === 'derived_from' && (
            <select aria-label="derived from" value={derivedFrom} onChange={(e) => setDerivedFrom(e.target.value)}>
              <option value="">choose…</option>
              {keysOf.map((key) => (
                <option key={key} value={key}>
                  {key}
                </option>
              ))}
            </select>
          )}
          {mode === 'plan_versions' && (
            <input aria-label="plan versions" type="number" min={1} value={planVersions} onChange={(e) => setPlanVersions(Number(e.target.value))} />
          )}
        </fieldset>
        <label>
          Repeats <input aria-label="repeats" type="number" min={1} value={repeats} onChange={(e) => setRepeats(Number(e.target.value))} />
        </label>{' '}
        <label>
          Alpha <input aria-label="alpha" type="number" min={0.001} max={0.5} step="any" value={alpha} onChange={(e) => setAlpha(Number(e.target.value))} />
        </label>
        <p className="muted small" data-testid="gate-run-count">
          {runs === null ? 'Runs: inputs × repeats × 2 (the inputs are resolved by the server)' : `This gate will make ${runs} run${runs === 1 ? '' : 's'} (${runs / 2} pairs).`}
        </p>
        <button type="submit" disabled={create.isPending}>
          Create and run
        </button>
        <ErrorNote error={formError ?? create.error} />
      </form>
    </section>
  );
}
