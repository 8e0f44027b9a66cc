import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { Scenario } from '../api/types.ts';
import { initialFormValue, type FormValue } from '../params/form-values.ts';

/** What the create form starts with when it copies a scenario ("Copy as new scenario"). */
export interface ScenarioPrefill {
  /** The scenario copied (the form is keyed by it, so a second copy starts afresh). */
  from: string;
  tag: string;
  datasetKey: string;
  algo: string;
  algoValues: Record<string, FormValue>;
  dataValues: Record<string, FormValue>;
}

/**
 * The copied scenario's parameters as form values: its algorithm's descriptors carry their values; its
 * data parameters are read through the dataset's descriptors (for their kinds).
 */
export function useCopyPrefill(sid: string, id: string | undefined): { prefill?: ScenarioPrefill; error: unknown; loading: boolean } {
  const api = useApi();
  const source = useQuery({ queryKey: keys.scenario(sid, id ?? ''), queryFn: () => api.scenario(sid, id!), enabled: id !== undefined, retry: false });
  const dataKey = source.data?.input_data_id ?? '';
  const dataParams = useQuery({
    queryKey: keys.dataParameters(sid, dataKey),
    queryFn: () => api.dataParameters(sid, dataKey),
    enabled: dataKey !== '',
    retry: false,
  });
  if (id === undefined) return { error: null, loading: false };
  const error = source.error ?? dataParams.error;
  if (!source.data || (!dataParams.data && !dataParams.error)) return { error, loading: !error };
  return { prefill: toPrefill(source.data, dataParams.data?.parameters ?? []), error, loading: false };
}

function toPrefill(s: Scenario, dataDescriptors: readonly Parameters<typeof initialFormValue>[0][]): ScenarioPrefill {
  const algoValues = Object.fromEntries(s.algorithm.parameters.map((d) => [d.name, initialFormValue(d)]));
  const given = s.data_parameters ?? {};
  const dataValues = Object.fromEntries(
    dataDescriptors.filter((d) => d.name in given).map((d) => [d.name, initialFormValue({ ...d, value: given[d.name] } as typeof d)]),
  );
  return { from: s.id, tag: `${s.tag} (copy)`, datasetKey: s.input_data_id, algo: s.algorithm.name, algoValues, dataValues };
}
