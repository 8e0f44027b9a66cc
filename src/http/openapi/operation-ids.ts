/**
 * Operation ids by route, with path parameters written `{}` so a route's own parameter names do not
 * matter. Routes of other features are listed too: the id stays stable whoever registers the route.
 * A route not listed gets one derived from its method and path (`operationIdFor`).
 */
const KNOWN_OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /health': 'getHealth',
  'GET /sessions': 'listSessions',
  'POST /sessions': 'createSession',
  'PATCH /sessions/{}': 'renameSession',
  'DELETE /sessions/{}': 'deleteSession',
  'POST /sessions/{}/copy': 'copySession',
  'GET /sessions/{}/algorithms': 'listAlgorithms',
  'GET /sessions/{}/algorithms/{}/parameters': 'getAlgorithmParameters',
  'GET /sessions/{}/kpis': 'listKpis',
  'GET /sessions/{}/schemas': 'listSchemas',
  'GET /sessions/{}/schemas/{}/template': 'getSchemaTemplate',
  'GET /sessions/{}/data': 'listDatasets',
  'GET /sessions/{}/data/{}': 'getDataset',
  'DELETE /sessions/{}/data/{}': 'deleteDataset',
  'POST /sessions/{}/data/{}/derive': 'deriveDataset',
  'GET /sessions/{}/data/{}/parameters': 'getDataParameters',
  'POST /sessions/{}/data/from-json': 'createDatasetFromJson',
  'POST /sessions/{}/etl': 'uploadDataset',
  'GET /sessions/{}/scenarios': 'listScenarios',
  'POST /sessions/{}/scenarios': 'createScenario',
  'GET /sessions/{}/scenarios/{}': 'getScenario',
  'DELETE /sessions/{}/scenarios/{}': 'deleteScenario',
  'POST /sessions/{}/scenarios/{}/run': 'runScenario',
  'POST /sessions/{}/scenarios/{}/reset': 'resetScenario',
  'POST /sessions/{}/scenarios/{}/cancel': 'cancelScenario',
  'GET /sessions/{}/scenarios/{}/status': 'getScenarioStatus',
  'GET /sessions/{}/scenarios/{}/result': 'getScenarioResult',
  'GET /sessions/{}/scenarios/{}/logs': 'getScenarioLogs',
  'GET /sessions/{}/processing': 'getProcessingScenario',
  'GET /sessions/{}/compare': 'compareScenarios',
  'GET /sessions/{}/events': 'streamEvents',
  'GET /sessions/{}/webhooks': 'listWebhooks',
  'POST /sessions/{}/webhooks': 'createWebhook',
  'GET /sessions/{}/webhooks/{}': 'getWebhook',
  'DELETE /sessions/{}/webhooks/{}': 'deleteWebhook',
  'GET /sessions/{}/webhooks/{}/deliveries': 'listWebhookDeliveries',
};

const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');

/** `GET /sessions/{}/data` for `GET` and `/sessions/:sid/data`. */
export function routeKey(method: string, path: string): string {
  const normalized = path
    .split('/')
    .map((segment) => (isParam(segment) ? '{}' : segment))
    .join('/');
  return `${method.toUpperCase()} ${normalized}`;
}

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** The operation id of a route (path relative to the prefix): listed, else e.g. `postTokensById`. */
export function operationIdFor(method: string, path: string): string {
  const known = KNOWN_OPERATION_IDS[routeKey(method, path)];
  if (known) return known;
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (isParam(segment) ? `By${pascal(segment.replace(/^[:{]|}$/g, ''))}` : pascal(segment)));
  return `${method.toLowerCase()}${words.join('') || 'Root'}`;
}
