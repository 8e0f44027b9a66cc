import { createScenaristClient, type paths, type WatchEventsOptions } from 'scenarist/client';
import { unwrap, type ApiConfig } from './http.ts';
import type { RunLogs } from './logs.ts';
import type { DatasetForm, DatasetSummary, Scenario } from './types.ts';

export type CreateScenarioBody = paths['/sessions/{sid}/scenarios']['post']['requestBody']['content']['application/json'];
export type ExportFormat = 'csv' | 'xlsx';
export type CreateExperimentBody = paths['/sessions/{sid}/experiments']['post']['requestBody']['content']['application/json'];
/** A batch action's target: listed ids, or every scenario the list route's filters match. */
export type BatchTarget = paths['/sessions/{sid}/scenarios:run']['post']['requestBody']['content']['application/json'];
export type BatchAction = 'run' | 'cancel' | 'reset' | 'delete';

/** How many datasets one list page asks for; the list follows `next_cursor` to the end. */
const DATASET_PAGE = 500;

/** Live-event options, plus a call when the stream has opened (the page then says "live"). */
export interface WatchOptions extends Omit<WatchEventsOptions, 'session'> {
  onOpen?: () => void;
}

/**
 * Every API call the dashboard makes, through the typed client of the server package
 * (`scenarist/client`: openapi-fetch over the schema generated from the server's OpenAPI document),
 * so paths, parameters, bodies and answers are checked against the server at build time. Pages use
 * this through `useApi()` and TanStack Query, never `fetch`.
 *
 * `fetchImpl` replaces the browser's fetch (component tests answer from a table).
 */
export function createApi(config: ApiConfig, fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
  // The client builds URLs with `new URL(...)`, which needs an absolute base; the UI knows only a path.
  const baseUrl = absolute(config.base);
  const http = createScenaristClient({ baseUrl, fetch: fetchImpl });
  // The token can change while the page is open (the token dialog): read it at each request.
  http.use({
    onRequest: ({ request }) => {
      if (config.token) request.headers.set('authorization', `Bearer ${config.token}`);
      return request;
    },
  });
  const at = (sid: string) => ({ params: { path: { sid } } });
  const scenarioAt = (sid: string, id: string) => ({ params: { path: { sid, id } } });
  const datasetAt = (sid: string, key: string) => ({ params: { path: { sid, key } } });

  return {
    config,
    /** The typed client itself, for the calls kept in a file of their own (`./views.ts`, `./result-download.ts`). */
    http,

    // Sessions
    listSessions: () => unwrap(config, http.GET('/sessions')),
    createSession: (name: string) => unwrap(config, http.POST('/sessions', { body: { display_name: name } })),
    renameSession: (sid: string, name: string) => unwrap(config, http.PATCH('/sessions/{sid}', { ...at(sid), body: { display_name: name } })),
    copySession: (sid: string, name: string) => unwrap(config, http.POST('/sessions/{sid}/copy', { ...at(sid), body: { new_display_name: name } })),
    deleteSession: (sid: string) => unwrap(config, http.DELETE('/sessions/{sid}', at(sid))),

    // Discovery
    algorithms: async (sid: string) => (await unwrap(config, http.GET('/sessions/{sid}/algorithms', at(sid)))).items,
    kpis: async (sid: string) => (await unwrap(config, http.GET('/sessions/{sid}/kpis', at(sid)))).items,
    health: () => unwrap(config, http.GET('/health')),
    schemas: async (sid: string) => (await unwrap(config, http.GET('/sessions/{sid}/schemas', at(sid)))).items,
    schemaTemplate: (sid: string, group: string, format: ExportFormat) =>
      unwrap(config, http.GET('/sessions/{sid}/schemas/{group}/template', { params: { path: { sid, group }, query: { format } }, parseAs: 'blob' })),
    algorithmParameters: (sid: string, name: string) =>
      unwrap(config, http.GET('/sessions/{sid}/algorithms/{name}/parameters', { params: { path: { sid, name } } })),

    // Datasets
    async listDatasets(sid: string): Promise<DatasetSummary[]> {
      const all: DatasetSummary[] = [];
      let cursor: string | undefined;
      do {
        const body = await unwrap(config, http.GET('/sessions/{sid}/data', { params: { path: { sid }, query: { limit: DATASET_PAGE, cursor } } }));
        // With a query the route answers a page; the plain `{ keys }` form is only for a bare GET.
        if (!('items' in body)) throw new Error('the dataset list answered without items');
        all.push(...body.items);
        cursor = body.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return all;
    },
    dataset: async (sid: string, key: string) => (await unwrap(config, http.GET('/sessions/{sid}/data/{key}', datasetAt(sid, key)))) as DatasetForm,
    dataParameters: (sid: string, key: string) => unwrap(config, http.GET('/sessions/{sid}/data/{key}/parameters', datasetAt(sid, key))),
    deleteDataset: (sid: string, key: string) => unwrap(config, http.DELETE('/sessions/{sid}/data/{key}', datasetAt(sid, key))),
    deriveDataset: (sid: string, key: string, newKey: string) =>
      unwrap(config, http.POST('/sessions/{sid}/data/{key}/derive', { ...datasetAt(sid, key), body: { new_key: newKey } })),
    uploadEtl: (sid: string, datasetName: string, files: readonly File[]) =>
      unwrap(
        config,
        http.POST('/sessions/{sid}/etl', {
          ...at(sid),
          // The schema types `files` as strings (binary); the multipart body is built from the File objects.
          body: { dataset_name: datasetName, files: [] },
          bodySerializer: () => {
            const form = new FormData();
            form.append('dataset_name', datasetName);
            for (const file of files) form.append('files', file, file.name);
            return form;
          },
        }),
      ),
    downloadDataset: (sid: string, key: string, format: ExportFormat, table?: string) =>
      unwrap(config, http.GET('/sessions/{sid}/data/{key}', { params: { path: { sid, key }, query: { format, table } }, parseAs: 'blob' })),

    // Scenarios
    async listScenarios(sid: string): Promise<Scenario[]> {
      const body = await unwrap(config, http.GET('/sessions/{sid}/scenarios', at(sid)));
      // Without query parameters the route answers the plain array of every scenario.
      if (!Array.isArray(body)) throw new Error('the scenario list answered a page instead of every scenario');
      return body;
    },
    scenario: (sid: string, id: string): Promise<Scenario> => unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}', scenarioAt(sid, id))),
    createScenario: (sid: string, body: CreateScenarioBody): Promise<Scenario> => unwrap(config, http.POST('/sessions/{sid}/scenarios', { ...at(sid), body })),
    runScenario: (sid: string, id: string): Promise<Scenario> => unwrap(config, http.POST('/sessions/{sid}/scenarios/{id}/run', scenarioAt(sid, id))),
    cancelScenario: (sid: string, id: string) => unwrap(config, http.POST('/sessions/{sid}/scenarios/{id}/cancel', scenarioAt(sid, id))),
    resetScenario: (sid: string, id: string) => unwrap(config, http.POST('/sessions/{sid}/scenarios/{id}/reset', scenarioAt(sid, id))),
    deleteScenario: (sid: string, id: string) => unwrap(config, http.DELETE('/sessions/{sid}/scenarios/{id}', scenarioAt(sid, id))),
    scenarioLogs: (sid: string, id: string): Promise<RunLogs> => unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}/logs', scenarioAt(sid, id))),

    async batchScenarios(sid: string, action: BatchAction, target: BatchTarget) {
      const options = { ...at(sid), body: target };
      if (action === 'run') return unwrap(config, http.POST('/sessions/{sid}/scenarios:run', options));
      if (action === 'cancel') return unwrap(config, http.POST('/sessions/{sid}/scenarios:cancel', options));
      if (action === 'reset') return unwrap(config, http.POST('/sessions/{sid}/scenarios:reset', options));
      return unwrap(config, http.POST('/sessions/{sid}/scenarios:delete', options));
    },

    // Experiments (docs/api/experiments.md)
    listExperiments: async (sid: string) => (await unwrap(config, http.GET('/sessions/{sid}/experiments', { params: { path: { sid }, query: { limit: 200 } } }))).items,
    createExperiment: (sid: string, body: CreateExperimentBody) => unwrap(config, http.POST('/sessions/{sid}/experiments', { ...at(sid), body })),
    experiment: (sid: string, eid: string) => unwrap(config, http.GET('/sessions/{sid}/experiments/{eid}', { params: { path: { sid, eid } } })),
    experimentResults: (sid: string, eid: string) =>
      unwrap(config, http.GET('/sessions/{sid}/experiments/{eid}/results', { params: { path: { sid, eid }, query: { format: 'json' } } })),
    /**
     * The results as a file for people: one row per scenario, its repeat and seed, its axis values and
     * KPIs, the columns labelled with their units and the KPIs rounded (`style=readable`).
     */
    experimentResultsFile: (sid: string, eid: string, format: ExportFormat) =>
      unwrap(config, http.GET('/sessions/{sid}/experiments/{eid}/results', { params: { path: { sid, eid }, query: { format, style: 'readable' } }, parseAs: 'blob' })),
    async actOnExperiment(sid: string, eid: string, action: BatchAction) {
      const options = { params: { path: { sid, eid } } };
      if (action === 'run') return unwrap(config, http.POST('/sessions/{sid}/experiments/{eid}/run', options));
      if (action === 'cancel') return unwrap(config, http.POST('/sessions/{sid}/experiments/{eid}/cancel', options));
      if (action === 'reset') return unwrap(config, http.POST('/sessions/{sid}/experiments/{eid}/reset', options));
      return unwrap(config, http.DELETE('/sessions/{sid}/experiments/{eid}', options));
    },

    compare: (sid: string, ids: readonly string[], baseline: string) =>
      unwrap(config, http.GET('/sessions/{sid}/compare', { params: { path: { sid }, query: { ids: ids.join(','), baseline } } })),

    /**
     * Follows the session's events with the client's `watchEvents` (fetch, so the token goes in a header,
     * and a dropped stream resumes after the last event) until `signal` aborts. The token is the one of
     * this moment: a new token restarts the watch (see `useLiveUpdates`).
     */
    watchEvents(sid: string, options: WatchOptions): Promise<void> {
      const { onOpen, ...watch } = options;
      const observing: typeof fetch = async (input, init) => {
        const response = await fetchImpl(input, init);
        if (response.ok) onOpen?.();
        return response;
      };
      const stream = createScenaristClient({ baseUrl, token: config.token ?? undefined, fetch: observing });
      return stream.watchEvents({ ...watch, session: sid });
    },
  };
}

export type Api = ReturnType<typeof createApi>;

/** The API base as an absolute URL (the page's own origin for a path). */
function absolute(base: string): string {
  const origin = typeof location === 'undefined' ? undefined : location.href;
  try {
    return new URL(base, origin).href.replace(/\/+$/, '');
  } catch {
    return base;
  }
}
