import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { ApiError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import { isDiagnostic } from '../api/algorithm-tags.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { TextField } from '../components/TextField.tsx';
import { ParamFieldset } from '../components/ParamForm.tsx';
import { collectValues, fieldOfServerError, type FormValue } from '../params/form-values.ts';
import type { ScenarioPrefill } from './copy-prefill.ts';
import { AlgorithmSelect } from '../components/AlgorithmSelect.tsx';

/**
 * Creates a scenario: tag, dataset, algorithm, then a form generated from the algorithm's (and the
 * data source's) parameter descriptors. The server judges the values; its messages land at the field.
 * `prefill` starts it with a copied scenario's choices and values.
 */
export function CreateScenarioForm({ sid, prefill, initialDataset }: { sid: string; prefill?: ScenarioPrefill; initialDataset?: string }) {
  const api = useApi();
  const client = useQueryClient();
  const datasets = useQuery({ queryKey: keys.datasets(sid), queryFn: () => api.listDatasets(sid) });
  const algorithms = useQuery({ queryKey: keys.algorithms(sid), queryFn: () => api.algorithms(sid) });
  const [tag, setTag] = useState(prefill?.tag ?? '');
  const [datasetKey, setDatasetKey] = useState(prefill?.datasetKey ?? initialDataset ?? '');
  const [algo, setAlgo] = useState(prefill?.algo ?? '');
  const [runNow, setRunNow] = useState(true);
  const [algoValues, setAlgoValues] = useState<Record<string, FormValue>>(prefill?.algoValues ?? {});
  const [dataValues, setDataValues] = useState<Record<string, FormValue>>(prefill?.dataValues ?? {});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<string | null>(null);

  const chosenDataset = datasetKey || datasets.data?.[0]?.key || '';
  // Algorithms that test the service (tag `diagnostic`) are not for planners: listed only on request.
  const [showDiagnostics, setShowDiagnostics] = useState(false);
  const offered = (algorithms.data ?? []).filter((a) => showDiagnostics || !isDiagnostic(a));
  const chosenAlgo = (offered.some((a) => a.name === algo) ? algo : '') || offered[0]?.name || '';
  const algoParams = useQuery({
    queryKey: keys.algorithmParameters(sid, chosenAlgo),
    queryFn: () => api.algorithmParameters(sid, chosenAlgo),
    enabled: chosenAlgo !== '',
  });
  const dataParams = useQuery({
    queryKey: keys.dataParameters(sid, chosenDataset),
    queryFn: () => api.dataParameters(sid, chosenDataset),
    enabled: chosenDataset !== '',
  });
  const description = algorithms.data?.find((a) => a.name === chosenAlgo)?.description;
  // Until the chosen algorithm's (and dataset's) parameters are in, the form would send the previous
  // choice's values, or none: creating waits for them.
  const parametersLoading = algoParams.isPending || dataParams.isPending;

  const create = useMutation({
    // The tag is passed in, not read from state: a reply arriving after the user typed the next tag
    // must only clear the tag it created (see onSuccess).
    mutationFn: async (submittedTag: string) => {
      const algoOut = collectValues(algoParams.data?.parameters ?? [], algoValues);
      const dataOut = collectValues(dataParams.data?.parameters ?? [], dataValues);
      const local = { ...dataOut.errors, ...algoOut.errors };
      if (submittedTag === '') local.tag = 'enter a tag';
      if (Object.keys(local).length > 0) {
        setFieldErrors(local);
        throw new Error('fix the marked fields');
      }
      const scenario = await api.createScenario(sid, {
        tag: submittedTag,
        dataset_key: chosenDataset,
        algo_name: chosenAlgo,
        algo_params: algoOut.values,
        data_params: dataOut.values,
      });
      return runNow && scenario.status === 'CREATED' ? api.runScenario(sid, scenario.id) : scenario;
    },
    onMutate: () => setFieldErrors({}),
    onSuccess: (scenario, submittedTag) => {
      setCreated(scenario.tag);
      // Creating then running can take a while on a busy server; whatever was typed meanwhile stays.
      setTag((current) => (current.trim() === submittedTag ? '' : current));
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
    },
    onError: (error) => {
      if (error instanceof ApiError) setFieldErrors(fieldOfServerError(error.errors));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate(tag.trim());
  };

  return (
    <section className="card" aria-labelledby="create-title">
      <h2 id="create-title" style={{ marginTop: 0 }}>
        New scenario
      </h2>
      <form onSubmit={submit} noValidate aria-describedby="create-status">
        <div className="form-grid">
          <TextField id="scenario-tag" label="Tag" value={tag} onChange={setTag} maxLength={200} error={fieldErrors.tag} />
          <div className="field" data-invalid={fieldErrors.dataset_key ? true : undefined}>
            <label htmlFor="scenario-dataset">Dataset</label>
            <select id="scenario-dataset" value={chosenDataset} onChange={(e) => setDatasetKey(e.target.value)}>
              {datasets.data?.length === 0 && <option value="">(no dataset: upload one on the Data page)</option>}
              {datasets.data?.map((d) => (
                <option key={d.key} value={d.key}>
                  {d.key}
                </option>
              ))}
            </select>
            {fieldErrors.dataset_key && <span className="error" role="alert">{fieldErrors.dataset_key}</span>}
          </div>
          <div className="field">
            <label htmlFor="scenario-algo">Algorithm</label>
            <AlgorithmSelect
              id="scenario-algo"
              offered={offered}
              value={chosenAlgo}
              onChange={(name) => {
                setAlgo(name);
                setAlgoValues({});
                setFieldErrors({});
              }}
              describedBy="scenario-algo-hint"
            />
            <span id="scenario-algo-hint" className="hint">
              {description ?? ''}
            </span>
          </div>
        </div>
        <ErrorNote error={algoParams.error ?? dataParams.error ?? algorithms.error ?? datasets.error} />
        {algoParams.data && (
          <ParamFieldset
            key={chosenAlgo}
            legend="Algorithm parameters"
            descriptors={algoParams.data.parameters}
            values={algoValues}
            errors={fieldErrors}
            idPrefix="algo"
            onChange={(name, value) => setAlgoValues((v) => ({ ...v, [name]: value }))}
          />
        )}
        {dataParams.data && (
          <ParamFieldset
            key={chosenDataset}
            legend="Data parameters"
            descriptors={dataParams.data.parameters}
            values={dataValues}
            errors={fieldErrors}
            idPrefix="data"
            onChange={(name, value) => setDataValues((v) => ({ ...v, [name]: value }))}
          />
        )}
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={runNow} onChange={(e) => setRunNow(e.target.checked)} />
            Run at once
          </label>
          {algorithms.data?.some(isDiagnostic) && (
            <label className="check">
              <input type="checkbox" role="switch" checked={showDiagnostics} onChange={(e) => setShowDiagnostics(e.target.checked)} />
              Show diagnostics
            </label>
          )}
          <button type="submit" className="primary" disabled={create.isPending || chosenDataset === '' || chosenAlgo === '' || parametersLoading}>
            Create scenario
          </button>
        </div>
        <div id="create-status" aria-live="polite">
          {created && <div className="alert ok">Scenario “{created}” created.</div>}
        </div>
        {create.error && <ErrorNote error={create.error} />}
      </form>
    </section>
  );
}
