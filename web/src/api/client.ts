import { compareLocally } from './compare.ts';
import { ApiError, request, seg, type ApiConfig } from './http.ts';
import type {
  AlgorithmInfo,
  CompareResult,
  DatasetForm,
  DatasetSummary,
  EtlResult,
  KpiInfo,
  ParameterSchema,
  RunLogs,
  Scenario,
  ScenarioStatus,
  Session,
  SessionList,
} from './types.ts';

export interface CreateScenarioBody {
  tag: string;
  dataset_key: string;
  algo_name: string;
  algo_params?: Record<string, unknown> | null;
  data_params?: Record<string, unknown> | null;
}

export type ExportFormat = 'csv' | 'xlsx';

/** Every API call the dashboard makes, typed. Pages use this through `useApi()`, never `fetch`. */
export function createApi(config: ApiConfig) {
  const s = (sid: string) => `/sessions/${seg(sid)}`;
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) => request<T>(config, 'GET', path, { query });
  const send = <T>(method: string, path: string, json?: unknown) => request<T>(config, method, path, json === undefined ? {} : { json });

  return {
    config,
    health: () => get<{ status: string; title: string; sessions: number }>('/health'),

    // Sessions
    listSessions: () => get<SessionList>('/sessions'),
    createSession: (name: string) => send<SessionList>('POST', '/sessions', { display_name: name }),
    renameSession: (sid: string, name: string) => send<Session>('PATCH', s(sid), { display_name: name }),
    copySession: (sid: string, name: string) => send<SessionList>('POST', `${s(sid)}/copy`, { new_display_name: name }),
    deleteSession: (sid: string) => send<SessionList>('DELETE', s(sid)),

    // Discovery: names always; descriptions, units and better_when where the server reports them.
    async algorithms(sid: string): Promise<AlgorithmInfo[]> {
      const body = await get<{ algorithms: string[]; items?: AlgorithmInfo[] }>(`${s(sid)}/algorithms`);
      return body.items ?? body.algorithms.map((name) => ({ name }));
    },
    algorithmParameters: (sid: string, name: string) => get<ParameterSchema>(`${s(sid)}/algorithms/${seg(name)}/parameters`),
    async kpis(sid: string): Promise<KpiInfo[]> {
      const body = await get<{ kpis: string[]; items?: KpiInfo[] }>(`${s(sid)}/kpis`);
      return body.items ?? body.kpis.map((name) => ({ name }));
    },

    // Datasets
    async listDatasets(sid: string): Promise<DatasetSummary[]> {
      const body = await get<{ keys?: string[]; items?: DatasetSummary[] }>(`${s(sid)}/data`, { limit: 500 });
      return body.items ?? (body.keys ?? []).map((key) => ({ key }));
    },
    dataset: (sid: string, key: string) => get<DatasetForm>(`${s(sid)}/data/${seg(key)}`),
    dataParameters: (sid: string, key: string) => get<ParameterSchema>(`${s(sid)}/data/${seg(key)}/parameters`),
    deleteDataset: (sid: string, key: string) => send<void>('DELETE', `${s(sid)}/data/${seg(key)}`),
    deriveDataset: (sid: string, key: string, newKey: string) =>
      send<{ keys: string[] }>('POST', `${s(sid)}/data/${seg(key)}/derive`, { new_key: newKey }),
    uploadEtl(sid: string, datasetName: string, files: readonly File[]): Promise<EtlResult> {
      const form = new FormData();
      form.append('dataset_name', datasetName);
      for (const file of files) form.append('files', file, file.name);
      return request<EtlResult>(config, 'POST', `${s(sid)}/etl`, { form });
    },
    async downloadDataset(sid: string, key: string, format: ExportFormat, table?: string): Promise<Blob> {
      const response = await request<Response>(config, 'GET', `${s(sid)}/data/${seg(key)}`, { query: { format, table }, raw: true });
      return response.blob();
    },

    // Scenarios
    async listScenarios(sid: string): Promise<Scenario[]> {
      const body = await get<Scenario[] | { items: Scenario[] }>(`${s(sid)}/scenarios`);
      return Array.isArray(body) ? body : body.items;
    },
    scenario: (sid: string, id: string) => get<Scenario>(`${s(sid)}/scenarios/${seg(id)}`),
    scenarioStatus: (sid: string, id: string) => get<ScenarioStatus>(`${s(sid)}/scenarios/${seg(id)}/status`),
    createScenario: (sid: string, body: CreateScenarioBody) => send<Scenario>('POST', `${s(sid)}/scenarios`, body),
    runScenario: (sid: string, id: string) => send<Scenario>('POST', `${s(sid)}/scenarios/${seg(id)}/run`),
    cancelScenario: (sid: string, id: string) => send<Scenario>('POST', `${s(sid)}/scenarios/${seg(id)}/cancel`),
    resetScenario: (sid: string, id: string) => send<Scenario>('POST', `${s(sid)}/scenarios/${seg(id)}/reset`),
    deleteScenario: (sid: string, id: string) => send<void>('DELETE', `${s(sid)}/scenarios/${seg(id)}`),
    logs: (sid: string, id: string) => get<RunLogs>(`${s(sid)}/scenarios/${seg(id)}/logs`),

    /** The server's comparison; computed here from the scenarios only when the server has no compare route. */
    async compare(sid: string, ids: readonly string[], baseline: string, scenarios: readonly Scenario[]): Promise<CompareResult> {
      try {
        return await get<CompareResult>(`${s(sid)}/compare`, { ids: ids.join(','), baseline });
      } catch (err) {
        if (err instanceof ApiError && err.isMissingRoute) return compareLocally(scenarios, ids, baseline);
        throw err;
      }
    },

    /** The session's event stream URL for EventSource (which cannot send headers: the token goes in the query). */
    eventsUrl: (sid: string, since?: number) =>
      config.url(`${s(sid)}/events`, { since, access_token: config.token ?? undefined }),
  };
}

export type Api = ReturnType<typeof createApi>;
