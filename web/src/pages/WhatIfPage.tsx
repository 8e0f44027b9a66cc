import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useApi } from '../api/context.tsx';
import { ApiError, type FieldError } from '../api/http.ts';
import { keys } from '../api/keys.ts';
import type { ParameterDescriptor, Scenario } from '../api/types.ts';
import { branchScenario } from '../api/what-if.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import type { RowRef } from '../api/explanations.ts';
import { rowFilter } from '../explanations/row-filter.ts';
import type { WhatIfSearch } from '../explanations/row-search.ts';
import { TextField } from '../components/TextField.tsx';
import { ParamFieldset } from '../components/ParamForm.tsx';
import { usePageTitle } from '../page-title.ts';
import { collectValues, fieldOfServerError, type FormValue } from '../params/form-values.ts';
import { useSid } from '../session.ts';
import { DataEditor } from '../whatif/DataEditor.tsx';
import { splitEditErrors } from '../whatif/edit-errors.ts';
import type { Edit } from '../whatif/edits.ts';
import { primaryKeys } from '../whatif/row-where.ts';
import { useCopyPrefill, type ScenarioPrefill } from './copy-prefill.ts';

/**
 * What if…: a branch of one scenario. Its parameters start as the base's; its data is the base's
 * dataset with the edits made here (cells, added and deleted rows, one change for filtered rows). Create
 * sends `POST .../scenarios/{id}/branch` with what differs; the server's refusals land at the edit or
 * field they name, and nothing is created while any stands.
 */
export function WhatIfPage() {
  const sid = useSid();
  const params: { id?: string } = useParams({ strict: false });
  const id = params.id ?? '';
  // A violation's What if… names its rows: the data editor opens filtered to them.
  const search: WhatIfSearch = useSearch({ strict: false });
  const base = useCopyPrefill(sid, id);
  const api = useApi();
  const scenario = useQuery({ queryKey: keys.scenario(sid, id), queryFn: () => api.scenario(sid, id), retry: false });
  usePageTitle(scenario.data ? `What if… ${scenario.data.tag}` : 'What if…');
  return (
    <>
      <p className="small" style={{ margin: '0 0 0.25rem' }}>
        <Link to="/s/$sid/scenarios" params={{ sid }}>
          Scenarios
        </Link>{' '}
        /{' '}
        {scenario.data ? (
          <Link to="/s/$sid/scenarios/$id" params={{ sid, id }}>
            {scenario.data.tag}
          </Link>
        ) : (
          id
        )}{' '}
        / What if…
      </p>
      <h1>What if… {scenario.data && <span className="muted">a branch of {scenario.data.tag}</span>}</h1>
      <ErrorNote error={base.error ?? scenario.error} />
      {base.loading && <p role="status">Loading the scenario…</p>}
      {scenario.data && base.prefill && <BranchEditor sid={sid} base={scenario.data} prefill={base.prefill} rows={search.rows} />}
    </>
  );
}

function BranchEditor({ sid, base, prefill, rows }: { sid: string; base: Scenario; prefill: ScenarioPrefill; rows?: readonly RowRef[] }) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const dataset = useQuery({ queryKey: keys.dataset(sid, base.input_data_id), queryFn: () => api.dataset(sid, base.input_data_id) });
  const dataParams = useQuery({ queryKey: keys.dataParameters(sid, base.input_data_id), queryFn: () => api.dataParameters(sid, base.input_data_id) });
  const schemas = useQuery({ queryKey: keys.schemas(sid), queryFn: () => api.schemas(sid) });
  const keyColumns = useMemo(() => primaryKeys(schemas.data), [schemas.data]);
  const opening = useMemo(
    () => (rows && dataset.data && schemas.data ? rowFilter(rows, keyColumns, Object.keys(dataset.data.tables)) : undefined),
    [rows, dataset.data, schemas.data, keyColumns],
  );
  // With rows to filter to, the editor waits for the keys that filter them (it reads its opening once).
  const editorReady = dataset.data !== undefined && (rows === undefined || opening !== undefined);
  const [tag, setTag] = useState(`${base.tag} what-if`);
  const [algoValues, setAlgoValues] = useState<Record<string, FormValue>>(prefill.algoValues);
  const [dataValues, setDataValues] = useState<Record<string, FormValue>>(prefill.dataValues);
  const [edits, setEdits] = useState<Edit[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [editErrors, setEditErrors] = useState<ReadonlyMap<number, FieldError[]>>(new Map());
  const [otherErrors, setOtherErrors] = useState<FieldError[]>([]);
  const dataDescriptors = dataParams.data?.parameters ?? [];

  const create = useMutation({
    mutationFn: async (run: boolean) => {
      const algo = collectValues(base.algorithm.parameters, algoValues);
      const data = collectValues(dataDescriptors, dataValues);
      const local = { ...algo.errors, ...data.errors, ...(tag.trim() === '' ? { tag: 'enter a tag' } : {}) };
      if (Object.keys(local).length > 0) {
        setFieldErrors(local);
        throw new Error('fix the marked fields');
      }
      return branchScenario(api, sid, base.id, {
        tag: tag.trim(),
        algo_params: changedFrom(base.algorithm.parameters, algo.values),
        data_params: changedFrom(withValues(dataDescriptors, base.data_parameters ?? {}), data.values),
        ...(edits.length > 0 ? { edits } : {}),
        run,
      });
    },
    onMutate: () => {
      setFieldErrors({});
      setEditErrors(new Map());
      setOtherErrors([]);
    },
    onSuccess: (branch) => {
      void client.invalidateQueries({ queryKey: keys.scenarios(sid) });
      void client.invalidateQueries({ queryKey: keys.datasets(sid) });
      void client.invalidateQueries({ queryKey: keys.lineage(sid) });
      void navigate({ to: '/s/$sid/scenarios/$id', params: { sid, id: branch.id } });
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      const { byEdit, others } = splitEditErrors(error.errors);
      setEditErrors(byEdit);
      const fields = fieldOfServerError(others);
      setFieldErrors(fields);
      setOtherErrors(others.filter((e) => !isShownAtField(e, fields, base.algorithm.parameters, dataDescriptors)));
    },
  });

  return (
    <>
      <section className="card" aria-labelledby="branch-setup-title">
        <h2 id="branch-setup-title" style={{ marginTop: 0 }}>
          Setup
        </h2>
        <p className="small muted">
          {base.algorithm.name} on a copy of <strong>{base.input_data_id}</strong> with the edits below (tables no edit touches are shared, not copied).
        </p>
        <TextField id="branch-tag" label="Tag" value={tag} onChange={setTag} maxLength={200} error={fieldErrors.tag} />
        <ParamFieldset
          legend={`Parameters of ${base.algorithm.name}`}
          testId="branch-algo-params"
          descriptors={base.algorithm.parameters}
          values={algoValues}
          errors={fieldErrors}
          idPrefix="branch-algo"
          onChange={(name, value) => setAlgoValues((v) => ({ ...v, [name]: value }))}
        />
        <ParamFieldset
          legend="Data parameters"
          descriptors={dataDescriptors}
          values={dataValues}
          errors={fieldErrors}
          idPrefix="branch-data"
          onChange={(name, value) => setDataValues((v) => ({ ...v, [name]: value }))}
        />
      </section>
      <ErrorNote error={dataset.error ?? schemas.error ?? dataParams.error} />
      {dataset.isPending && <p role="status">Loading the data of {base.input_data_id}…</p>}
      {opening && (
        <p className="small muted" data-testid="rows-filter-note">
          Filtered to the rows the rule names
          {opening.unfiltered.length > 0 && `; the rows of ${opening.unfiltered.join(', ')} cannot be filtered by key, so those tables show every row`}. Clear
          the filter to see every row.
        </p>
      )}
      {editorReady && dataset.data && (
        <DataEditor base={dataset.data.tables} keyColumns={keyColumns} edits={edits} onEdits={setEdits} errors={editErrors} opening={opening} />
      )}
      <div className="row branch-actions">
        <button type="button" onClick={() => create.mutate(false)} disabled={create.isPending || !dataset.data}>
          Create
        </button>
        <button type="button" className="primary" onClick={() => create.mutate(true)} disabled={create.isPending || !dataset.data}>
          Create and run
        </button>
        {create.isPending && <span role="status">Creating…</span>}
      </div>
      {create.error && (editErrors.size > 0 || Object.keys(fieldErrors).length > 0) && otherErrors.length === 0 ? (
        <p className="alert error" role="alert">
          {create.error instanceof ApiError ? create.error.detail : create.error.message}: see the marked {editErrors.size > 0 ? 'edits' : 'fields'}.
        </p>
      ) : (
        <ErrorNote error={create.error} />
      )}
    </>
  );
}

/** The values that differ from the base's: a branch sends only what it changes (the rest it inherits). */
function changedFrom(baseDescriptors: readonly ParameterDescriptor[], values: Record<string, unknown>): Record<string, unknown> {
  const before = new Map(baseDescriptors.map((d) => [d.name, JSON.stringify(d.value ?? null)]));
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => before.get(name) !== JSON.stringify(value ?? null)));
}

const withValues = (descriptors: readonly ParameterDescriptor[], given: Record<string, unknown>) =>
  descriptors.map((d) => (d.name in given ? ({ ...d, value: given[d.name] } as ParameterDescriptor) : d));

/** Whether a server error already shows at a field of the form (the tag, a parameter). */
function isShownAtField(error: FieldError, fields: Record<string, string>, algo: readonly ParameterDescriptor[], data: readonly ParameterDescriptor[]): boolean {
  const name = Object.keys(fieldOfServerError([error]))[0] ?? '';
  return name in fields && (name === 'tag' || algo.some((d) => d.name === name) || data.some((d) => d.name === name));
}
