import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isDiagnostic } from '../api/algorithm-tags.ts';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { ParameterDescriptor } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { TextField } from '../components/TextField.tsx';
import { labelOf } from '../components/ParamField.tsx';
import { collectValues, type FormValue } from '../params/form-values.ts';
import { axisBody, axisLength, axisProblem, countProblem, newAxis, scenarioCount, type AxisInput } from './axes.ts';
import { formErrorsOf, NO_ERRORS } from './field-errors.ts';
import { FixedValues } from './FixedValues.tsx';
import { SeedNote } from './SeedNote.tsx';
import { AlgorithmSelect } from '../components/AlgorithmSelect.tsx';

/** Messages under a field, announced (the server's or the count's). */
function FieldMessages({ id, messages }: { id: string; messages: readonly string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <span id={id} className="error" role="alert">
      {messages.join('; ')}
    </span>
  );
}

/**
 * Creates an experiment: name, algorithm (diagnostics left out), one or several datasets (several make
 * `dataset_key` an axis), the algorithm's parameters to vary with their values (a list, or
 * from/to/steps for a number), fixed values for the others and the data parameters, repeats. The
 * scenario count follows the typing; the server's errors land at their fields.
 */
export function ExperimentForm({ sid, onCreated }: { sid: string; onCreated: (id: string) => void }) {
  const api = useApi();
  const client = useQueryClient();
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const algorithms = useQuery({ queryKey: keys.algorithms(sid), queryFn: () => api.algorithms(sid) });
  const [name, setName] = useState('');
  const [algo, setAlgo] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [axes, setAxes] = useState<AxisInput[]>([]);
  const [repeats, setRepeats] = useState('1');
  const [runNow, setRunNow] = useState(true);
  const [algoValues, setAlgoValues] = useState<Record<string, FormValue>>({});
  const [dataValues, setDataValues] = useState<Record<string, FormValue>>({});
  // The fixed values' own problems show once creating was tried (their defaults are valid to start with).
  const [tried, setTried] = useState(false);

  // Algorithms that test the service are for its developers, not for sweeps.
  const offered = (algorithms.data ?? []).filter((a) => !isDiagnostic(a));
  const chosenAlgo = algo || offered[0]?.name || '';
  const chosenDatasets = chosen.length > 0 ? chosen : datasets.data?.[0] ? [datasets.data[0].key] : [];
  const params = useQuery({
    queryKey: keys.algorithmParameters(sid, chosenAlgo),
    queryFn: () => api.algorithmParameters(sid, chosenAlgo),
    enabled: chosenAlgo !== '',
  });
  const descriptors = params.data?.parameters ?? [];
  const descriptorOf = (path: string) => descriptors.find((d) => `algo_params.${d.name}` === path);
  const dataParams = useQuery({
    queryKey: keys.dataParameters(sid, chosenDatasets[0] ?? ''),
    queryFn: () => api.dataParameters(sid, chosenDatasets[0]!),
    enabled: chosenDatasets.length > 0,
  });
  const fixedDescriptors = descriptors.filter((d) => !axes.some((a) => a.path === `algo_params.${d.name}`));
  const fixedAlgo = collectValues(fixedDescriptors, algoValues);
  const fixedData = collectValues(dataParams.data?.parameters ?? [], dataValues);
  const fixedProblems = Object.keys(fixedAlgo.errors).length + Object.keys(fixedData.errors).length;
  // What each varied parameter still lacks (an empty From or To), keyed by its path.
  const axisProblems = new Map(axes.flatMap((a) => (axisProblem(a) === null ? [] : [[a.path, axisProblem(a)!] as const])));

  const lengths = [...axes.map(axisLength), chosenDatasets.length];
  const count = scenarioCount(lengths, Number(repeats));
  const problem = countProblem(count);

  const create = useMutation({
    mutationFn: () =>
      api.createExperiment(sid, {
        name: name.trim(),
        algo_name: chosenAlgo,
        ...(chosenDatasets.length === 1 ? { dataset_key: chosenDatasets[0] } : {}),
        algo_params: fixedAlgo.values,
        data_params: fixedData.values,
        axes: {
          ...Object.fromEntries(axes.map((a) => [a.path, axisBody(a, descriptorOf(a.path))])),
          ...(chosenDatasets.length > 1 ? { dataset_key: chosenDatasets } : {}),
        },
        repeats: Number(repeats),
        run: runNow,
      }),
    onSuccess: (experiment) => {
      void client.invalidateQueries({ queryKey: keys.experiments(sid) });
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      onCreated(experiment.id);
    },
  });
  const errors = create.error ? formErrorsOf(create.error) : NO_ERRORS;
  const local = name.trim() === '' ? 'enter a name' : axisProblems.size > 0 ? 'fill in the varied parameters' : null;

  const toggleAxis = (d: ParameterDescriptor, on: boolean) =>
    setAxes((list) => (on ? [...list, newAxis(`algo_params.${d.name}`, d)] : list.filter((a) => a.path !== `algo_params.${d.name}`)));
  const editAxis = (path: string, change: Partial<AxisInput>) => setAxes((list) => list.map((a) => (a.path === path ? { ...a, ...change } : a)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (local === null && problem === null && fixedProblems === 0) create.mutate();
  };

  return (
    <section className="card" aria-labelledby="new-experiment-title">
      <h2 id="new-experiment-title" style={{ marginTop: 0 }}>
        New experiment
      </h2>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <TextField id="experiment-name" label="Name" value={name} onChange={setName} maxLength={200} error={errors.fields.name?.join('; ')} />
          <div className="field">
            <label htmlFor="experiment-algo">Algorithm</label>
            <AlgorithmSelect
              id="experiment-algo"
              offered={offered}
              value={chosenAlgo}
              onChange={(name) => {
                setAlgo(name);
                setAxes([]);
                setAlgoValues({});
              }}
            />
            <FieldMessages id="experiment-algo-error" messages={errors.fields.algo_name} />
          </div>
          <div className="field">
            <label htmlFor="experiment-repeats">Repeats</label>
            <input id="experiment-repeats" type="number" min={1} step={1} inputMode="numeric" value={repeats} onChange={(e) => setRepeats(e.target.value)} />
            <FieldMessages id="experiment-repeats-error" messages={errors.fields.repeats} />
          </div>
        </div>
        <ErrorNote error={params.error ?? dataParams.error ?? algorithms.error ?? datasets.error} />
        <fieldset aria-describedby={errors.fields.datasets ? 'experiment-datasets-error' : undefined}>
          <legend>Datasets (several vary the dataset)</legend>
          {datasets.data?.length === 0 && <p className="muted small">No dataset: upload one on the Data page.</p>}
          {datasets.data?.map((d) => (
            <label key={d.key} className="check">
              <input
                type="checkbox"
                checked={chosenDatasets.includes(d.key)}
                onChange={(e) => setChosen(e.target.checked ? [...chosenDatasets, d.key] : chosenDatasets.filter((k) => k !== d.key))}
              />
              {d.key}
            </label>
          ))}
          <FieldMessages id="experiment-datasets-error" messages={errors.fields.datasets} />
        </fieldset>
        <fieldset>
          <legend>Parameters to vary</legend>
          {descriptors.length === 0 && <p className="muted small">{params.isPending ? 'Loading parameters…' : params.isError ? 'The parameters could not be read.' : 'This algorithm has no parameters.'}</p>}
          {descriptors.map((d) => {
            const path = `algo_params.${d.name}`;
            const axis = axes.find((a) => a.path === path);
            const id = `axis-${d.name}`;
            const own = axisProblems.get(path);
            const messages = own === undefined ? errors.fields[path] : [own, ...(errors.fields[path] ?? [])];
            return (
              <div key={d.name} className="axis" data-testid="axis" data-invalid={messages ? true : undefined}>
                <label className="check">
                  <input type="checkbox" checked={axis !== undefined} onChange={(e) => toggleAxis(d, e.target.checked)} />
                  Vary {labelOf(d)} <span className="muted small">({rangeNote(d)})</span>
                </label>
                {axis && <AxisEditor id={id} axis={axis} numeric={d.type === 'integer' || d.type === 'float'} onChange={(c) => editAxis(path, c)} invalid={messages !== undefined} />}
                <FieldMessages id={`${id}-error`} messages={messages} />
              </div>
            );
          })}
        </fieldset>
        <FixedValues
          algorithm={fixedDescriptors}
          data={dataParams.data?.parameters ?? []}
          dataset={chosenDatasets[0]}
          algoValues={algoValues}
          dataValues={dataValues}
          algoErrors={tried ? fixedAlgo.errors : {}}
          dataErrors={tried ? fixedData.errors : {}}
          onAlgo={(n, v) => setAlgoValues((values) => ({ ...values, [n]: v }))}
          onData={(n, v) => setDataValues((values) => ({ ...values, [n]: v }))}
        />
        <p data-testid="scenario-count" aria-live="polite">
          <strong>{count.toLocaleString('en')}</strong> scenario{count === 1 ? '' : 's'} ({lengths.join(' × ')} × {Number(repeats) || 0} repeat
          {Number(repeats) === 1 ? '' : 's'})
        </p>
        <SeedNote algorithm={algorithms.data?.find((a) => a.name === chosenAlgo)} repeats={Number(repeats)} varied={axes.map((a) => a.path)} fixed={Object.keys(fixedAlgo.values).filter((name) => fixedAlgo.values[name] !== null && fixedAlgo.values[name] !== undefined)} />
        {problem && (
          <p className="alert warning" data-testid="count-problem">
            {problem}
          </p>
        )}
        <FieldMessages id="experiment-count-error" messages={errors.fields.count} />
        {errors.other.length > 0 && (
          <ul className="error" aria-label="Other problems">
            {errors.other.map((e) => (
              <li key={`${e.path}:${e.message}`}>
                <code>{e.path}</code>: {e.message}
              </li>
            ))}
          </ul>
        )}
        {create.error && Object.keys(errors.fields).length === 0 && errors.other.length === 0 && (
          <p className="alert error" role="alert">
            {create.error.message}
          </p>
        )}
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={runNow} onChange={(e) => setRunNow(e.target.checked)} />
            Run at once
          </label>
          <button type="submit" className="primary" disabled={create.isPending || chosenAlgo === '' || chosenDatasets.length === 0 || problem !== null || local !== null}>
            Create experiment
          </button>
          {local && <span className="muted small">({local})</span>}
        </div>
      </form>
    </section>
  );
}

function AxisEditor({ id, axis, numeric, invalid, onChange }: { id: string; axis: AxisInput; numeric: boolean; invalid: boolean; onChange: (c: Partial<AxisInput>) => void }) {
  const described = invalid ? `${id}-error` : undefined;
  return (
    <div className="row axis-editor">
      {numeric && (
        <select aria-label={`How to give the values of ${axis.path}`} value={axis.mode} onChange={(e) => onChange({ mode: e.target.value === 'list' ? 'list' : 'range' })}>
          <option value="range">from / to / steps</option>
          <option value="list">a list</option>
        </select>
      )}
      {axis.mode === 'list' ? (
        <>
          <label htmlFor={`${id}-list`} className="small">
            Values (comma-separated)
          </label>
          <input id={`${id}-list`} value={axis.list} onChange={(e) => onChange({ list: e.target.value })} aria-invalid={invalid || undefined} aria-describedby={described} />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-from`} className="small">
            From
          </label>
          <input id={`${id}-from`} className="short" type="number" step="any" value={axis.from} onChange={(e) => onChange({ from: e.target.value })} aria-invalid={invalid || undefined} aria-describedby={described} />
          <label htmlFor={`${id}-to`} className="small">
            To
          </label>
          <input id={`${id}-to`} className="short" type="number" step="any" value={axis.to} onChange={(e) => onChange({ to: e.target.value })} aria-invalid={invalid || undefined} aria-describedby={described} />
          <label htmlFor={`${id}-steps`} className="small">
            Steps
          </label>
          <input id={`${id}-steps`} className="short" type="number" min={2} step={1} value={axis.steps} onChange={(e) => onChange({ steps: e.target.value })} />
        </>
      )}
    </div>
  );
}

/** The descriptor's kind and bounds, so the values can be typed right the first time. */
function rangeNote(d: ParameterDescriptor): string {
  const parts: string[] = [d.type];
  if ('min' in d && d.min !== undefined) parts.push(`min ${d.min}`);
  if ('max' in d && d.max !== undefined) parts.push(`max ${d.max}`);
  if ('choices' in d && Array.isArray(d.choices)) parts.push(`one of ${(d.choices as unknown[]).join(', ')}`);
  return parts.join(', ');
}
