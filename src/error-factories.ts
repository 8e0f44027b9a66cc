import { type ErrorCode, type FieldError, ScenaristError } from './errors.js';

/**
 * What the service says when it refuses, one factory per situation, each bound to its code in the
 * registry (errors.ts): throw sites pass the values and the sentence is written here, once. A
 * situation met in several places (`scenarioNotFound`) is one factory, so it reads the same
 * everywhere. Like errors.ts, this file imports nothing else of src/: every layer may use it.
 */

/** A client-sent value quoted in a sentence, cut short: never echo a whole hostile header back. */
const quote = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
/** Names listed in a sentence: `'a', 'b'`. */
const quotedList = (names: readonly string[]) => names.map((n) => `'${n}'`).join(', ');

/** How many field errors a sentence names; `errors` lists more, and counts them all. */
const NAMED_IN_DETAIL = 5;
/** Field errors in a sentence: `path: message; path: message`, the first few and how many more. */
const listed = (fields: readonly FieldError[]) => {
  const named = fields.slice(0, NAMED_IN_DETAIL).map((e) => `${e.path}: ${e.message}`).join('; ');
  return fields.length > NAMED_IN_DETAIL ? `${named}; and ${fields.length - NAMED_IN_DETAIL} more (see errors)` : named;
};
const make = (code: ErrorCode, detail: string, fields: readonly FieldError[] = []) => new ScenaristError(code, detail, fields);
/** A 422 about one field: the detail names the field and the field's entry says what is wrong with it. */
const field = (code: ErrorCode, path: string, problem: string, detail = `${path} ${problem}`) => make(code, detail, [{ path, message: problem }]);
/** The JSON form of a dataset, not what it must be. */
const form = (detail: string) => make('DATASET_FORM_INVALID', detail);

export const errors = {
  // BAD_INPUT
  clientClosedUpload: () => make('BAD_INPUT', 'the client closed the connection; the upload was stopped and nothing was stored'),
  pathSegmentTooLong: (maxChars: number, maxNameChars: number) =>
    make('BAD_INPUT', `a path segment is longer than ${maxChars} characters; names are at most ${maxNameChars} characters`),

  // HTTP_MALFORMED, URL_MALFORMED (`reason`: Node's HTTP parser's words, which never echo the request's bytes)
  httpMalformed: (reason: string) => make('HTTP_MALFORMED', `malformed HTTP request: ${reason}`),
  urlMalformed: () => make('URL_MALFORMED', 'the request URL is not valid (bad percent-encoding?)'),

  // BODY_EMPTY, BODY_MALFORMED, BODY_TOO_DEEP, BODY_KEY_REFUSED
  bodyEmpty: () => make('BODY_EMPTY', 'the request body is empty; send a JSON document'),
  datasetBodyEmpty: () => make('BODY_EMPTY', 'the request body is empty; send the JSON form of a dataset'),
  bodyNotJson: (parserMessage: string) => make('BODY_MALFORMED', `the request body is not valid JSON: ${parserMessage}`),
  /** `where` is the value's path in the body, or the character it starts at. */
  bodyNumberOutOfRange: (literal: string, where: string) =>
    make('BODY_MALFORMED', `the JSON body's number ${literal} at ${where} is beyond the range of a number (about ±1.8e308); send a smaller one`),
  bodyTooDeep: (maxDepth: number, offset: number) =>
    make('BODY_TOO_DEEP', `the JSON body nests deeper than ${maxDepth} levels (the bracket at character ${offset + 1} opens level ${maxDepth + 1})`),
  bodyKeyRefused: (key: string) =>
    make('BODY_KEY_REFUSED', `the JSON body's key '${key}' is refused: '__proto__' and 'constructor.prototype' keys could replace the prototype of objects built from it`),

  // NUL_CHARACTER
  parameterWithNul: (name: string) => make('NUL_CHARACTER', `parameter ${quote(name)} contains a NUL character`),

  // QUERY_INVALID
  /** The query fails the route's schema: one entry per parameter. */
  queryInvalid: (fields: readonly FieldError[]) => make('QUERY_INVALID', `invalid query: ${listed(fields)}`, fields),
  idsWithEmptyEntry: () => make('QUERY_INVALID', 'ids must be a comma-separated list of scenario ids, without empty entries'),
  idListedTwice: (id: string) => make('QUERY_INVALID', `scenario '${id}' is listed twice in ids`),
  tooManyCompared: (max: number, count: number) => make('QUERY_INVALID', `at most ${max} scenarios can be compared, got ${count}`),
  comparedCountOutOfRange: (min: number, max: number, count: number) => make('QUERY_INVALID', `comparison views draw ${min} to ${max} scenarios, got ${count}`),
  comparedResultTypesDiffer: (types: readonly string[]) =>
    make('QUERY_INVALID', `comparison views draw results of one result type; these scenarios' algorithms return ${types.join(', ')}`),
  baselineNotCompared: (baseline: string) => make('QUERY_INVALID', `baseline '${baseline}' is not one of the compared ids`),
  pageLimitInvalid: (max: number, given: string) => make('QUERY_INVALID', `limit must be a whole number from 1 to ${max}, got '${given}'`),
  sortColumnUnknown: (column: string, columns: readonly string[]) =>
    make('QUERY_INVALID', `sort names column '${column}', which this view does not have; use one of ${columns.join(', ')}, or -<column> for descending`),
  sortKpiUnknown: (kpi: string, kpis: readonly string[]) => make('QUERY_INVALID', `sort: unknown KPI '${kpi}'; the KPIs are ${quotedList(kpis)}`),
  scenarioSortInvalid: (given: string) => make('QUERY_INVALID', `sort must be created_at, tag or kpi:<name>, each optionally prefixed by '-', got '${given}'`),
  scenarioFieldUnknown: (name: string, fields: readonly string[]) => make('QUERY_INVALID', `fields: '${name}' is not a scenario field; choose from ${fields.join(', ')}`),
  scenarioFieldsEmpty: (fields: readonly string[]) => make('QUERY_INVALID', `fields must name at least one of ${fields.join(', ')}`),
  exportTableWithoutFormat: () => make('QUERY_INVALID', 'table selects what a csv or xlsx export holds; add format=csv or format=xlsx'),
  schemaGroupNotOneTable: (group: string, tables: readonly string[]) =>
    make('QUERY_INVALID', `schema group '${group}' has ${tables.length} tables (${tables.join(', ')}) and a CSV file holds one; ask for format=xlsx`),

  // CURSOR_INVALID
  cursorInvalid: () => make('CURSOR_INVALID', 'cursor is not valid: pass the next_cursor of a previous page unchanged'),
  cursorOfOtherSort: (cursorSort: string, sort: string) => make('CURSOR_INVALID', `cursor belongs to sort '${cursorSort}', not '${sort}'; start again without a cursor`),

  // LAST_EVENT_ID_INVALID
  lastEventIdInvalid: (given: string) => make('LAST_EVENT_ID_INVALID', `Last-Event-ID must be an event id (a non-negative integer), not '${given}'`),

  // MULTIPART_INVALID, UPLOAD_EMPTY
  notMultipart: () => make('MULTIPART_INVALID', 'send the upload as multipart/form-data with files and dataset_name'),
  multipartWithoutBoundary: () => make('MULTIPART_INVALID', 'the multipart Content-Type has no boundary parameter'),
  multipartFieldTooLong: (name: string, maxBytes: number) => make('MULTIPART_INVALID', `field '${name}' is longer than ${maxBytes} bytes`),
  multipartTooMany: (what: 'parts' | 'files' | 'fields', max: number) => make('MULTIPART_INVALID', `the upload has more than ${max} ${what}`),
  multipartInterrupted: () => make('MULTIPART_INVALID', 'the upload was interrupted before its end'),
  multipartUnreadable: (reason: string) => make('MULTIPART_INVALID', `the multipart body cannot be read: ${reason}`),
  uploadFieldUnexpected: (name: string) => make('MULTIPART_INVALID', `unexpected file field '${name}'; upload files under 'files'`),
  uploadWithoutFilename: () => make('MULTIPART_INVALID', 'an upload in files has no filename'),
  uploadEmpty: () => make('UPLOAD_EMPTY', 'no file uploaded; send one or more files under files'),

  // DATASET_FORM_INVALID: `got` is a short description of the value found (its type, or the value itself)
  datasetNotObject: (got: string) => form(`a dataset must be a JSON object with key and tables, got ${got}`),
  datasetKeyNotString: (got: string) => form(`dataset "key" must be a string, got ${got}`),
  datasetKindInvalid: (got: string) => form(`dataset "kind" must be "master" or "derived", got ${got}`),
  datasetTablesNotObject: (got: string) => form(`dataset "tables" must be an object of tables, got ${got}`),
  tableNotObject: (table: string, got: string) => form(`table "${table}" must be an object with columns and rows, got ${got}`),
  tableColumnsNotArray: (table: string) => form(`table "${table}": "columns" must be an array`),
  columnUnnamed: (table: string, index: number) => form(`table "${table}": column ${index} must be an object with a non-empty string "name"`),
  columnTypeInvalid: (table: string, column: string, got: string, types: readonly string[]) =>
    form(`table "${table}": column "${column}" has type ${got}; expected one of ${types.join(', ')}`),
  columnTwice: (table: string, column: string) => form(`table "${table}": column "${column}" appears twice`),
  tableRowsNotArray: (table: string) => form(`table "${table}": "rows" must be an array of arrays`),
  rowWidthInvalid: (table: string, row: number, width: number) => form(`table "${table}": row ${row} must be an array of ${width} values`),
  cellTypeInvalid: (table: string, row: number, column: string, got: string, type: string) =>
    form(`table "${table}": row ${row}, column "${column}": ${got} is not a ${type}`),
  /** `table` names the table the decoder failed on, when it is known. */
  datasetDecodeFailed: (reason: string, table?: string) =>
    form(`the data source could not decode the dataset${table === undefined ? '' : ` (table '${table}')`}: ${reason}`),
  datasetDecodeReturned: (got: string) => form(`the data source could not decode the dataset: its decode() returned ${got}, not a dataset`),

  // UPLOAD_STRUCTURE_LIMIT
  bodyStructureLimit: (where: string, problem: string) => make('UPLOAD_STRUCTURE_LIMIT', `the request body, ${where}: ${problem}`),

  // PARAMETER_INVALID
  experimentParametersInvalid: (fields: readonly FieldError[]) => make('PARAMETER_INVALID', `invalid experiment: ${listed(fields)}`, fields),

  gateParametersInvalid: (fields: readonly FieldError[]) => make('PARAMETER_INVALID', `invalid gate: ${listed(fields)}`, fields),

  // DATASET_EDITS_INVALID
  datasetEditsInvalid: (key: string, fields: readonly FieldError[]) =>
    make('DATASET_EDITS_INVALID', `the edits do not fit dataset '${key}', nothing was stored: ${listed(fields)}`, fields),

  // GATE_INVALID, GATE_TOO_LARGE
  gateInvalid: (fields: readonly FieldError[]) => make('GATE_INVALID', `invalid gate: ${listed(fields)}`, fields),
  gateTooLarge: (size: number, max: number) => make('GATE_TOO_LARGE', `the gate would create ${size} scenarios, more than max_experiment_size (${max})`),

  // EXPERIMENT_AXES_INVALID, EXPERIMENT_REPEATS_SEEDED
  experimentAxesInvalid: (fields: readonly FieldError[]) => make('EXPERIMENT_AXES_INVALID', `invalid axes: ${listed(fields)}`, fields),
  /** `where` is the field that gives the seed a value: `seedPath` itself, or the axis over it. */
  repeatsSeeded: (where: string, seedPath: string, repeats: number) =>
    field(
      'EXPERIMENT_REPEATS_SEEDED',
      where,
      `fixes the seed of every repeat, so the ${repeats} repeats of each combination would be the same run; leave ${seedPath} unset (each run then takes its own seed), or use repeats 1`,
    ),

  // RESULT_NOT_TABULAR
  resultNotTabular: (algorithm: string) => make('RESULT_NOT_TABULAR', `algorithm '${algorithm}' declares no table view of its result; ask for format=json`),

  // TOKEN_MISSING, TOKEN_INVALID
  tokenMissing: (queryTokenAccepted: boolean) =>
    make('TOKEN_MISSING', `authentication required: send "Authorization: Bearer <token>"${queryTokenAccepted ? ' or ?access_token=' : ''}`),
  tokenInvalid: () => make('TOKEN_INVALID', 'the token is not valid (unknown, revoked or malformed)'),
  authorizationNotBearer: () => make('TOKEN_INVALID', 'the Authorization header must be "Bearer <token>"'),

  // TOKEN_SCOPE_INSUFFICIENT, TOKEN_SESSION_MISMATCH
  tokenScopeInsufficient: (needed: string, held: string) =>
    make('TOKEN_SCOPE_INSUFFICIENT', `this route needs a token of scope ${needed}${needed === 'metrics' ? ' or admin' : ' or above'}; this token has scope ${held}`),
  boundTokenOnSharedRoute: () => make('TOKEN_SESSION_MISMATCH', 'this token is limited to one session; this route needs a token for every session'),
  boundTokenOtherSession: () => make('TOKEN_SESSION_MISMATCH', 'this token is limited to another session'),

  // HOST_NOT_ALLOWED, ORIGIN_NOT_ALLOWED, SESSION_CREATE_DISABLED
  hostNotAllowed: (host: string) => make('HOST_NOT_ALLOWED', `host ${quote(host)} is not allowed on this server (see the allowed_hosts setting)`),
  originNotAllowed: (origin: string) =>
    make('ORIGIN_NOT_ALLOWED', `cross-origin request from ${quote(origin)} refused; allowed are this server's own origin and cors_origins`),
  sessionCreateDisabled: () => make('SESSION_CREATE_DISABLED', 'session creation is disabled on this server'),

  // NOT_FOUND
  scenarioViewNotFound: (id: string, view: string) => make('NOT_FOUND', `scenario '${id}' has no view '${view}'`),
  datasetViewNotFound: (key: string, view: string) => make('NOT_FOUND', `dataset '${key}' has no view '${view}'`),
  comparisonViewNotFound: (resultType: string, view: string) => make('NOT_FOUND', `results of type '${resultType}' have no comparison view '${view}'`),
  schemaGroupNotFound: (group: string, groups: readonly string[]) => make('NOT_FOUND', `schema group '${group}' not found; the groups are ${quotedList(groups)}`),
  samplesNotDeclared: (domain: string) => make('NOT_FOUND', `domain '${domain}' ships no sample data (its definition declares no \`seed\`)`),

  // ROUTE_NOT_FOUND (of the dashboard's files), DASHBOARD_NOT_BUILT
  routeNotFound: (method: string, path: string) => make('ROUTE_NOT_FOUND', `no route ${method} ${path}`),
  dashboardFileNotFound: (path: string) => make('ROUTE_NOT_FOUND', `no file ${path} in the dashboard`),
  dashboardNotBuilt: () => make('DASHBOARD_NOT_BUILT', 'the dashboard is not built; run `npm run build` (npm ci does it)'),

  // SESSION_NOT_FOUND, SCENARIO_NOT_FOUND, DATASET_NOT_FOUND, ALGORITHM_NOT_FOUND, TABLE_NOT_FOUND, WEBHOOK_NOT_FOUND, EXPERIMENT_NOT_FOUND
  sessionNotFound: (ref: string) => make('SESSION_NOT_FOUND', `session '${ref}' not found`),
  sessionGoneDuringStore: (sessionId: string, key: string) =>
    make('SESSION_NOT_FOUND', `session '${sessionId}' was deleted while its dataset '${key}' was being stored`),
  scenarioNotFound: (id: string) => make('SCENARIO_NOT_FOUND', `scenario '${id}' not found`),
  datasetNotFound: (key: string) => make('DATASET_NOT_FOUND', `dataset '${key}' not found`),
  // DATASET_VERSION_NOT_FOUND
  datasetVersionNotFound: (key: string, version: number) =>
    make('DATASET_VERSION_NOT_FOUND', `dataset '${key}' has no version ${version}: GET .../data/${key}/versions lists the versions it keeps`),
  reportNotFound: (id: string) => make('REPORT_NOT_FOUND', `report '${id}' not found`),
  /** Several datasets an experiment names, each listed in `errors` under `path`. */
  datasetsNotFound: (keys: readonly string[], path: string) =>
    make(
      'DATASET_NOT_FOUND',
      `dataset${keys.length > 1 ? 's' : ''} not found: ${quotedList(keys)}`,
      keys.map((key) => ({ path, message: `dataset '${key}' not found` })),
    ),
  algorithmNotFound: (name: string) => make('ALGORITHM_NOT_FOUND', `algorithm '${name}' not found`),
  tableNotFound: (key: string, table: string, tables: readonly string[]) =>
    make('TABLE_NOT_FOUND', `dataset '${key}' has no table '${table}'; its tables are ${quotedList(tables) || 'none'}`),
  webhookNotFound: (id: string) => make('WEBHOOK_NOT_FOUND', `webhook '${id}' not found`),
  scheduleNotFound: (id: string) => make('SCHEDULE_NOT_FOUND', `schedule '${id}' not found; GET the session's schedules for their ids`),
  experimentNotFound: (id: string) => make('EXPERIMENT_NOT_FOUND', `experiment '${id}' not found`),
  gateNotFound: (id: string) => make('GATE_NOT_FOUND', `gate '${id}' not found`),

  // REQUEST_TIMEOUT
  requestTimeout: () => make('REQUEST_TIMEOUT', 'the request was not received in time (request_timeout / headers_timeout)'),

  // CONFLICT
  datasetChangedWhileDerived: (key: string) => make('CONFLICT', `dataset '${key}' was replaced again and again while it was being derived from; ask again`),
  datasetChangedWhileDrawn: (key: string) => make('CONFLICT', `dataset '${key}' changed while its view was being drawn; ask again`),

  // SCENARIO_STATE_CONFLICT, SCENARIO_BUSY, RESULT_NOT_READY
  /** `reason` is the run state machine's own account of why the transition is not allowed. */
  scenarioStateConflict: (reason: string) => make('SCENARIO_STATE_CONFLICT', reason),
  scenarioBusy: () => make('SCENARIO_BUSY', 'the scenario is being changed by other requests; try again'),
  scenarioChangedWhileDrawn: (id: string) => make('SCENARIO_BUSY', `scenario '${id}' changed while its view was being drawn; ask again`),
  resultNotReady: (id: string, status: string) => make('RESULT_NOT_READY', `scenario '${id}' is ${status}; it has a result once COMPLETE`),
  viewsNotReady: (id: string, status: string) => make('RESULT_NOT_READY', `scenario '${id}' is ${status}; its views are drawn once it is COMPLETE`),

  // DATASET_IN_USE, TAG_TAKEN, SESSION_NAME_TAKEN, DATASET_KEY_TAKEN, EXPERIMENT_NAME_TAKEN, WEBHOOK_LIMIT_REACHED
  datasetInUse: (key: string) => make('DATASET_IN_USE', `dataset '${key}' is used by scenarios of this session; delete those scenarios first`),
  tagTaken: (tag: string) => make('TAG_TAKEN', `a scenario tagged '${tag}' already exists in the session`),
  sessionNameTaken: (name: string) => make('SESSION_NAME_TAKEN', `a session named '${name}' already exists`),
  datasetKeyTaken: (key: string) => make('DATASET_KEY_TAKEN', `dataset '${key}' already exists`),
  gateNameTaken: (name: string) => make('GATE_NAME_TAKEN', `a gate named '${name}' already exists in the session`),
  gateTagsTaken: (name: string) => make('GATE_NAME_TAKEN', `a scenario tag '${name}/<side>/<n>' is already taken in the session; choose another gate name`),
  gateRunning: (id: string, open: number) => make('GATE_RUNNING', `gate '${id}' has ${open} run(s) queued or running; it can be saved as a report once its verdict is in`),
  experimentNameTaken: (name: string) => make('EXPERIMENT_NAME_TAKEN', `an experiment named '${name}' already exists in the session`),
  experimentTagsTaken: (name: string) =>
    make('EXPERIMENT_NAME_TAKEN', `a scenario tag '${name}/…' of this experiment is already taken in the session; choose another experiment name`),
  scheduleNameTaken: (name: string) => make('SCHEDULE_NAME_TAKEN', `a schedule named ${quote(name)} already exists in the session; choose another name`),
  schedulePlanMissing: () =>
    make('SCHEDULE_PLAN_MISSING', "action 'replan' re-plans the session's published plan, and the session has none: publish a scenario first, or use action { kind: 'rerun', scenario }"),
  webhookLimitReached: (max: number) => make('WEBHOOK_LIMIT_REACHED', `the session already has ${max} webhooks; delete one first`),

  // PLAN_SCENARIO_NOT_COMPLETE, PLAN_ALREADY_PUBLISHED, PLAN_NOT_PUBLISHED
  planScenarioNotComplete: (id: string, status: string) =>
    make('PLAN_SCENARIO_NOT_COMPLETE', `scenario '${id}' is ${status}; only a COMPLETE scenario can be published as the plan`),
  planAlreadyPublished: (id: string) => make('PLAN_ALREADY_PUBLISHED', `scenario '${id}' is already the session's current plan`),
  planNotPublished: () => make('PLAN_NOT_PUBLISHED', 'the session has no current plan to withdraw'),
  planNotPublishedToReplan: () => make('PLAN_NOT_PUBLISHED', 'the session has no current plan to re-plan from; publish a COMPLETE scenario first'),

  // REBASE_CONFLICT
  /** `conflicts`: every edit that no longer fits, each naming its scenario (id and tag), dataset, path and why. */
  rebaseConflict: (conflicts: readonly { scenario_id: string; tag: string; dataset: string; path: string; message: string }[]) =>
    new ScenaristError(
      'REBASE_CONFLICT',
      `${conflicts.length} edit${conflicts.length === 1 ? ' does' : 's do'} not fit the new data, nothing was stored: ${listed(conflicts.map((c) => ({ path: `'${c.tag}' ${c.dataset} ${c.path}`, message: c.message })))}`,
      [],
      { conflicts },
    ),

  // PLAN_SCENARIO_PROTECTED, PLAN_DATASET_PROTECTED, PLAN_SESSION_PROTECTED
  /** `action`: what was refused (reset, run, delete, edit); without `id`, a concurrent publication was met by the store. */
  planScenarioProtected: (action: string, id?: string) =>
    make('PLAN_SCENARIO_PROTECTED', `cannot ${action} ${id === undefined ? 'a scenario that is' : `scenario '${id}': it is`} the session's published plan; withdraw the plan or publish another scenario first`),
  planDatasetProtected: (action: string, key?: string) =>
    make('PLAN_DATASET_PROTECTED', `cannot ${action} ${key === undefined ? 'a dataset that is' : `dataset '${key}': it is`} used by the session's published plan; withdraw the plan first`),
  planSessionProtected: (ref: string) => make('PLAN_SESSION_PROTECTED', `cannot delete session '${ref}': it has a published plan; withdraw the plan first`),

  // TOO_LARGE, BODY_TOO_LARGE, UPLOAD_TIME_LIMIT, EXPERIMENT_TOO_LARGE
  uploadFileTooLarge: (file: string, maxBytes: number) => make('TOO_LARGE', `file '${file}' is larger than the upload limit of ${maxBytes} bytes`),
  uploadTooLarge: (maxBytes: number) => make('TOO_LARGE', `the upload is larger than the limit of ${maxBytes} bytes`),
  jsonFormTooLarge: () => make('TOO_LARGE', 'the request body is larger than the configured limit'),
  uploadOutOfMemory: (maxHeapMb: number) => make('TOO_LARGE', `the upload needs more than the ${maxHeapMb} MB of memory an upload may use; send it in smaller files`),
  bodyTooLarge: () => make('BODY_TOO_LARGE', 'the request body is larger than the configured limit'),
  chunkExtensionsTooLarge: () => make('BODY_TOO_LARGE', 'the chunk extensions of the request body are too large'),
  uploadTimeLimit: (limitMs: number) =>
    make('UPLOAD_TIME_LIMIT', `the upload needed more than the ${limitMs / 1000} s an upload may take (upload_time_limit) and was stopped; nothing was stored. Send it in smaller files`),
  experimentTooLarge: (size: number, maxSize: number) =>
    make('EXPERIMENT_TOO_LARGE', `the experiment would create ${size} scenarios; the limit (setting max_experiment_size) is ${maxSize}`),

  // UNSUPPORTED_MEDIA_TYPE
  /** `contentType` is the request's Content-Type header, undefined when it has none. */
  mediaTypeNotJson: () => make('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type; this route takes application/json'),
  mediaTypeUnsupported: (accepted: readonly string[], contentType: string | undefined) =>
    make('UNSUPPORTED_MEDIA_TYPE', `this route takes ${accepted.join(' or ')}; the request has ${contentType === undefined ? 'no Content-Type' : `Content-Type ${quote(contentType)}`}`),

  // INVALID_REQUEST
  /** A name (key, tag, display name) that breaks `rule`, the rule of every name. */
  nameInvalid: (path: string, rule: string, length: number) => field('INVALID_REQUEST', path, `must be ${rule} (got ${length} characters)`),
  displayNameIsSessionId: (path: string) =>
    field('INVALID_REQUEST', path, 'must not be a session id (a UUID): in a path it would be taken for an id, not this name'),
  displayNameOuterWhitespace: (path: string) => field('INVALID_REQUEST', path, 'must not start or end with whitespace'),
  uploadDatasetNameMissing: () => field('INVALID_REQUEST', 'dataset_name', 'is required and must not be empty', 'dataset_name is required'),
  reportBaselineNotCompared: (baseline: string) =>
    field('INVALID_REQUEST', 'baseline', 'must be one of ids', `baseline: ${quote(baseline)} is not one of the compared ids`),
  reportIdListedTwice: (id: string) => field('INVALID_REQUEST', 'ids', `lists ${quote(id)} twice`, `ids: scenario ${quote(id)} is listed twice`),
  experimentDatasetKeyMissing: () => field('INVALID_REQUEST', 'dataset_key', 'is required unless dataset_key is an axis', 'dataset_key is required unless dataset_key is an axis'),
  bodyStringWithNul: (path: string) => {
    const problem = 'must not contain a NUL character (\\u0000)';
    return field('INVALID_REQUEST', path, problem, `invalid request: ${path}: ${problem}`);
  },
  webhookUrlNotAbsolute: (given: string) => field('INVALID_REQUEST', 'url', 'must be an absolute http or https URL', `url: '${given}' is not an absolute URL`),
  webhookUrlScheme: (scheme: string) => field('INVALID_REQUEST', 'url', 'must use http or https', `url: the scheme '${scheme}' is not allowed; use http or https`),
  webhookUrlCredentials: () =>
    field('INVALID_REQUEST', 'url', 'must not contain user or password', 'url: must not contain credentials; the signature authenticates deliveries'),

  /** The body fails the route's schema: one entry per field. */
  requestInvalid: (fields: readonly FieldError[]) => make('INVALID_REQUEST', `invalid request: ${listed(fields)}`, fields),
  // WEBHOOK_TARGET_REFUSED
  /** `refusal` is the address policy's account of why the host is refused (it words delivery refusals too). */
  scheduleInvalid: (fields: readonly FieldError[]) => make('SCHEDULE_INVALID', `invalid schedule: ${listed(fields)}`, fields),
  webhookTargetRefused: (refusal: string) => field('WEBHOOK_TARGET_REFUSED', 'url', refusal, `url: ${refusal}`),

  // VIEW_ERROR
  viewFailed: (view: string, reason: string) => make('VIEW_ERROR', `view '${view}' failed: ${reason}`),
  viewSpecUnusable: (view: string, kind: string, reason: string) => make('VIEW_ERROR', `view '${view}' returned an unusable ${kind} spec: ${reason}`),
  viewTimeLimit: (view: string, limitMs: number) =>
    make('VIEW_ERROR', `view '${view}' needed more than the ${limitMs / 1000} s a view may take (upload_time_limit) and was stopped`),
  viewAbandoned: (view: string) => make('VIEW_ERROR', `view '${view}' was stopped: the client went away`),
  viewDataUnreadable: (view: string, reason: string) => make('VIEW_ERROR', `view '${view}' could not read its data: the data source's prepare failed: ${reason}`),
  viewOutOfMemory: (view: string, maxHeapMb: number) => make('VIEW_ERROR', `view '${view}' needed more than the ${maxHeapMb} MB of memory a view may use`),

  // HEADERS_TOO_LARGE
  headersTooLarge: () => make('HEADERS_TOO_LARGE', 'the request line and headers are larger than the server accepts'),

  // INTERNAL_ERROR: the cause stays in the server log
  internalError: () => make('INTERNAL_ERROR', 'internal server error'),
  /** Only where undeclared codes are refused (the test apps): names the route and the code to declare. */
  undeclaredCode: (route: string, code: ErrorCode) =>
    make('INTERNAL_ERROR', `${route} answered ${code}, which it does not declare: add it to the route's config.errors`),

  // UPLOAD_BUSY, VIEW_BUSY, STORE_UNAVAILABLE
  poolBusy: (work: 'upload' | 'view', threads: number, retryAfterSeconds: number) =>
    make(work === 'upload' ? 'UPLOAD_BUSY' : 'VIEW_BUSY', `every ${work} thread is busy (${threads}); retry in ${retryAfterSeconds} s`),
  storeUnavailable: (retryAfterSeconds: number) => make('STORE_UNAVAILABLE', `the database does not answer; retry in ${retryAfterSeconds} s`),
} as const;
