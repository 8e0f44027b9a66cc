import { ERROR_CODES, ERROR_REGISTRY, type ErrorCode } from '../../errors.js';

/**
 * The resource a path names, by its parameter, and the 404 code its absence answers. A route can
 * answer a 404 code only for what its path names (scenario creation names its dataset and algorithm
 * in the body, hence the extra entries); ROUTE_NOT_FOUND and NOT_FOUND stay possible everywhere.
 */
const NOT_FOUND_BY_PATH: readonly (readonly [RegExp, ErrorCode])[] = [
  [/\/sessions\/(:sid|\{sid\})/, 'SESSION_NOT_FOUND'],
  [/\/scenarios(\/|$)/, 'SCENARIO_NOT_FOUND'],
  [/\/scenarios$|\/data(\/|$)|\/etl|\/from-json/, 'DATASET_NOT_FOUND'],
  [/\/scenarios$|\/algorithms\//, 'ALGORITHM_NOT_FOUND'],
  [/\/data\/.+/, 'TABLE_NOT_FOUND'],
  [/\/webhooks\//, 'WEBHOOK_NOT_FOUND'],
  [/^\/ui/, 'DASHBOARD_NOT_BUILT'],
];

/** Which pool's threads a path waits for, and the 503 code it answers when they are all busy. */
const BUSY_BY_PATH: readonly (readonly [RegExp, ErrorCode])[] = [
  [/\/etl$|\/from-json$/, 'UPLOAD_BUSY'],
  [/\/views\/|\/result$/, 'VIEW_BUSY'],
];

/**
 * The error codes a route can answer, for its operation's `x-error-codes`: every registry code whose
 * status the route documents, 404 codes narrowed to what its path names, 503 codes to the pool it
 * waits for. Clients generate their error handling from it; docs/api/errors.md says what each code means.
 */
export function errorCodesOf(path: string, statuses: readonly string[]): ErrorCode[] {
  const documented = new Set(statuses.map(Number).filter((s) => s >= 400));
  const notFound = new Set<ErrorCode>(['NOT_FOUND', 'ROUTE_NOT_FOUND']);
  for (const [pattern, code] of NOT_FOUND_BY_PATH) if (pattern.test(path)) notFound.add(code);
  const busy = new Set(BUSY_BY_PATH.filter(([pattern]) => pattern.test(path)).map(([, code]) => code));
  return ERROR_CODES.filter((code) => {
    const status: number = ERROR_REGISTRY[code].status;
    if (!documented.has(status)) return false;
    if (status === 503) return busy.has(code);
    return status !== 404 || notFound.has(code);
  });
}
