/**
 * Every failure the service reports on purpose, as a stable code a client can branch on. Domain code
 * throws `ScenaristError`s with a code; `ERROR_REGISTRY` gives each its HTTP status, what it means and
 * how to fix it (docs/api/errors.md is generated from it: `npm run generate:errors`); error-factories.ts
 * words each situation a code covers, so throw sites pass values only. A code, once published, keeps
 * its name and status; new failures get new codes.
 */
export const ERROR_CODES = [
  'BAD_INPUT',
  'HTTP_MALFORMED',
  'URL_MALFORMED',
  'BODY_EMPTY',
  'BODY_MALFORMED',
  'BODY_TOO_DEEP',
  'BODY_KEY_REFUSED',
  'NUL_CHARACTER',
  'QUERY_INVALID',
  'CURSOR_INVALID',
  'LAST_EVENT_ID_INVALID',
  'MULTIPART_INVALID',
  'UPLOAD_EMPTY',
  'DATASET_FORM_INVALID',
  'ETL_INPUT_INVALID',
  'ETL_SCHEMA_MISMATCH',
  'UPLOAD_STRUCTURE_LIMIT',
  'PARAMETER_INVALID',
  'EXPERIMENT_AXES_INVALID',
  'EXPERIMENT_REPEATS_SEEDED',
  'GATE_INVALID',
  'RESULT_NOT_TABULAR',
  'TOKEN_MISSING',
  'TOKEN_INVALID',
  'FORBIDDEN',
  'TOKEN_SCOPE_INSUFFICIENT',
  'TOKEN_SESSION_MISMATCH',
  'HOST_NOT_ALLOWED',
  'ORIGIN_NOT_ALLOWED',
  'SESSION_CREATE_DISABLED',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'SCENARIO_NOT_FOUND',
  'DATASET_NOT_FOUND',
  'DATASET_VERSION_NOT_FOUND',
  'ALGORITHM_NOT_FOUND',
  'TABLE_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'EXPERIMENT_NOT_FOUND',
  'GATE_NOT_FOUND',
  'REPORT_NOT_FOUND',
  'SCHEDULE_NOT_FOUND',
  'DASHBOARD_NOT_BUILT',
  'REQUEST_TIMEOUT',
  'CONFLICT',
  'SCENARIO_STATE_CONFLICT',
  'SCENARIO_BUSY',
  'RESULT_NOT_READY',
  'DATASET_IN_USE',
  'TAG_TAKEN',
  'SESSION_NAME_TAKEN',
  'DATASET_KEY_TAKEN',
  'EXPERIMENT_NAME_TAKEN',
  'GATE_NAME_TAKEN',
  'GATE_RUNNING',
  'WEBHOOK_LIMIT_REACHED',
  'SCHEDULE_NAME_TAKEN',
  'SCHEDULE_PLAN_MISSING',
  'PLAN_SCENARIO_NOT_COMPLETE',
  'PLAN_ALREADY_PUBLISHED',
  'PLAN_NOT_PUBLISHED',
  'REBASE_CONFLICT',
  'PLAN_SCENARIO_PROTECTED',
  'PLAN_DATASET_PROTECTED',
  'PLAN_SESSION_PROTECTED',
  'TOO_LARGE',
  'BODY_TOO_LARGE',
  'UPLOAD_TIME_LIMIT',
  'EXPERIMENT_TOO_LARGE',
  'GATE_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_REQUEST',
  'DATASET_EDITS_INVALID',
  'WEBHOOK_TARGET_REFUSED',
  'SCHEDULE_INVALID',
  'VIEW_ERROR',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'UPLOAD_BUSY',
  'VIEW_BUSY',
  'STORE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One entry of the registry: the status a code is answered with, what it means, and what fixes it. */
export interface ErrorSpec {
  readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 431 | 500 | 503;
  readonly meaning: string;
  readonly fix: string;
}

/** The registry of errors, one entry a line. The HTTP layer's only source of statuses. */
export const ERROR_REGISTRY = {
  BAD_INPUT: { status: 400, meaning: 'malformed or unusable input that no more specific code covers', fix: 'read `detail`; it names the offending value' },
  HTTP_MALFORMED: { status: 400, meaning: 'the HTTP request itself cannot be parsed (request line, headers, framing)', fix: 'send a well-formed HTTP/1.1 request' },
  URL_MALFORMED: { status: 400, meaning: 'the request URL is not valid (bad percent-encoding)', fix: 'percent-encode the path and query correctly' },
  BODY_EMPTY: { status: 400, meaning: 'the route takes a JSON body and the request has none', fix: 'send a JSON document as the body' },
  BODY_MALFORMED: { status: 400, meaning: 'the body is not valid JSON, or holds a number beyond the range of a double (`1e309`)', fix: 'send valid JSON with numbers within ±1.8e308; `detail` says where parsing stopped, or names the number' },
  BODY_TOO_DEEP: { status: 400, meaning: 'the JSON body nests arrays and objects more than 100 levels deep', fix: 'send a flatter body; no route needs more than a few levels' },
  BODY_KEY_REFUSED: { status: 400, meaning: "the JSON body has a key that could replace an object's prototype (`__proto__`, or `constructor` holding `prototype`)", fix: 'rename or remove the key named in `detail`' },
  NUL_CHARACTER: { status: 400, meaning: 'a path or query parameter contains a NUL character', fix: 'remove the NUL character (%00) from the URL' },
  QUERY_INVALID: { status: 400, meaning: 'a query parameter is missing or has a value the route cannot use (sort, fields, ids, baseline, table, format, limit ...)', fix: 'read `detail` and `errors`; they name the parameter and what it accepts' },
  CURSOR_INVALID: { status: 400, meaning: 'the list cursor is not one this server gave out for this sort', fix: 'pass `next_cursor` of a previous page unchanged, or start again without a cursor' },
  LAST_EVENT_ID_INVALID: { status: 400, meaning: 'Last-Event-ID is not an event id', fix: 'send the `id` of the last event received (a non-negative integer)' },
  MULTIPART_INVALID: { status: 400, meaning: 'the multipart upload cannot be read or breaks its limits (parts, fields, field size)', fix: 'send multipart/form-data with `files` and `dataset_name` only' },
  UPLOAD_EMPTY: { status: 400, meaning: 'the upload carries no file', fix: 'send one or more files under `files`' },
  DATASET_FORM_INVALID: { status: 400, meaning: "the dataset's JSON form is not a dataset (key, kind, tables, columns, rows)", fix: 'follow the JSON form in docs/api/contract.md; `detail` names the offending part' },
  ETL_INPUT_INVALID: { status: 400, meaning: 'an uploaded file cannot be processed at all (empty, not UTF-8, unreadable, unsupported extension)', fix: 'fix the file named in `detail` and upload again' },
  ETL_SCHEMA_MISMATCH: { status: 400, meaning: "an uploaded file's layout does not match its schema group", fix: 'send one array of records per table of the group named in `detail`' },
  UPLOAD_STRUCTURE_LIMIT: { status: 400, meaning: 'an uploaded file has a row, cell, record or run of text longer than upload_max_field, or JSON nested too deep', fix: '`detail` names the file and where; split the value, or raise upload_max_field' },
  PARAMETER_INVALID: { status: 400, meaning: 'algorithm or data parameter values fail their declarations; `errors` lists every one', fix: 'correct each field in `errors`; GET the algorithm for its parameters' },
  EXPERIMENT_AXES_INVALID: { status: 400, meaning: "an experiment's axes are unusable (unknown path, empty list, steps below 2, a range that is not numeric)", fix: 'correct each axis listed in `errors`' },
  EXPERIMENT_REPEATS_SEEDED: { status: 400, meaning: "an experiment with repeats above 1 gives the algorithm's seed parameter a value (shared or as an axis): every repeat would be the same run", fix: 'leave the seed parameter unset so each run takes its own seed, or use repeats 1' },
  GATE_INVALID: { status: 400, meaning: 'a gate request is unusable: a KPI it names is unknown or applies to neither side, a rule names a KPI the gate does not judge, its inputs resolve to no dataset, or its seed parameter is fixed while repeats are above 1', fix: 'read `detail` (and `errors`); GET /kpis for the names' },
  RESULT_NOT_TABULAR: { status: 400, meaning: 'the algorithm declares no tabular view of its result', fix: 'ask for format=json' },
  TOKEN_MISSING: { status: 401, meaning: 'the route needs a bearer token and the request has none', fix: 'send `Authorization: Bearer <token>` (`scenarist token create`)' },
  TOKEN_INVALID: { status: 401, meaning: 'the token is unknown, revoked or malformed', fix: 'create a new token with `scenarist token create`' },
  FORBIDDEN: { status: 403, meaning: 'the request is refused by a setting or a rule no more specific code covers', fix: 'read `detail`' },
  TOKEN_SCOPE_INSUFFICIENT: { status: 403, meaning: "the route needs a higher scope than the token's", fix: 'use a token of the scope named in `detail` (read < run < admin)' },
  TOKEN_SESSION_MISMATCH: { status: 403, meaning: 'the token is limited to another session, or the route needs a token for every session', fix: 'use a token made without --session, or one for this session' },
  HOST_NOT_ALLOWED: { status: 403, meaning: "the request's Host is not in allowed_hosts", fix: 'call the server by an allowed name, or add it to the allowed_hosts setting' },
  ORIGIN_NOT_ALLOWED: { status: 403, meaning: 'a cross-origin request from an origin not in cors_origins', fix: 'add the origin to the cors_origins setting' },
  SESSION_CREATE_DISABLED: { status: 403, meaning: 'session creation is disabled on this server', fix: 'use an existing session, or set allow_session_create' },
  NOT_FOUND: { status: 404, meaning: 'something the request names does not exist (no more specific code)', fix: 'read `detail`' },
  ROUTE_NOT_FOUND: { status: 404, meaning: 'no route has this method and path', fix: 'check the path and prefix against /openapi.json' },
  SESSION_NOT_FOUND: { status: 404, meaning: 'no session has this id or display name', fix: 'GET /sessions for the existing ones' },
  SCENARIO_NOT_FOUND: { status: 404, meaning: 'no scenario has this id in the session', fix: "GET the session's scenarios; ids are per session" },
  DATASET_NOT_FOUND: { status: 404, meaning: 'no dataset has this key in the session', fix: "GET the session's datasets for their keys" },
  DATASET_VERSION_NOT_FOUND: { status: 404, meaning: 'the dataset has no version of this number (never written, or pruned by the dataset_versions_kept setting)', fix: 'GET .../data/{key}/versions for the versions it keeps' },
  ALGORITHM_NOT_FOUND: { status: 404, meaning: 'the domain has no algorithm of this name', fix: 'GET /algorithms for the names' },
  TABLE_NOT_FOUND: { status: 404, meaning: 'the dataset has no table of this name', fix: '`detail` lists its tables' },
  WEBHOOK_NOT_FOUND: { status: 404, meaning: 'the session has no webhook of this id', fix: "GET the session's webhooks" },
  EXPERIMENT_NOT_FOUND: { status: 404, meaning: 'the session has no experiment of this id', fix: "GET the session's experiments" },
  GATE_NOT_FOUND: { status: 404, meaning: 'the session has no gate of this id', fix: "GET the session's gates" },
  REPORT_NOT_FOUND: { status: 404, meaning: 'the session has no report of this id', fix: "GET the session's reports" },
  SCHEDULE_NOT_FOUND: { status: 404, meaning: 'the session has no schedule of this id', fix: "GET the session's schedules" },
  DASHBOARD_NOT_BUILT: { status: 404, meaning: 'the web dashboard is not built into this installation', fix: 'run `npm run build`' },
  REQUEST_TIMEOUT: { status: 408, meaning: 'the request did not arrive within request_timeout or headers_timeout', fix: 'send faster, or raise the timeouts' },
  CONFLICT: { status: 409, meaning: 'the current state forbids the operation (no more specific code)', fix: 'read `detail`' },
  SCENARIO_STATE_CONFLICT: { status: 409, meaning: "the scenario's status forbids the operation (e.g. edit while PROCESSING, run while QUEUED)", fix: 'wait for the run to end, or cancel or reset it first' },
  SCENARIO_BUSY: { status: 409, meaning: 'other requests kept changing the scenario while this one tried', fix: 'retry the request' },
  RESULT_NOT_READY: { status: 409, meaning: 'the scenario has no result yet (it is not COMPLETE)', fix: 'poll its status until COMPLETE, then ask again' },
  DATASET_IN_USE: { status: 409, meaning: 'scenarios of the session use the dataset', fix: 'delete those scenarios first' },
  TAG_TAKEN: { status: 409, meaning: 'a scenario of the session already has this tag', fix: 'choose another tag' },
  SESSION_NAME_TAKEN: { status: 409, meaning: 'a session already has this display name', fix: 'choose another display name' },
  DATASET_KEY_TAKEN: { status: 409, meaning: 'a dataset of the session already has this key', fix: 'choose another key, or delete that dataset' },
  EXPERIMENT_NAME_TAKEN: { status: 409, meaning: 'an experiment of the session already has this name (or its scenario tags are taken)', fix: 'choose another experiment name' },
  GATE_NAME_TAKEN: { status: 409, meaning: 'a gate of the session already has this name (or its scenario tags are taken)', fix: 'choose another gate name' },
  GATE_RUNNING: { status: 409, meaning: 'the gate has runs queued or running, so it has no verdict to save yet', fix: 'wait until GET .../gates/{gid} answers status complete, then save it' },
  WEBHOOK_LIMIT_REACHED: { status: 409, meaning: 'the session has as many webhooks as it may', fix: 'delete a webhook first' },
  SCHEDULE_NAME_TAKEN: { status: 409, meaning: 'a schedule of the session already has this name', fix: 'choose another name, or PATCH that schedule' },
  SCHEDULE_PLAN_MISSING: { status: 409, meaning: "a schedule's `replan` action needs the session's published plan, and it has none", fix: 'publish a scenario first (POST .../scenarios/{id}/publish), or use a `rerun` action' },
  PLAN_SCENARIO_NOT_COMPLETE: { status: 409, meaning: 'only a COMPLETE scenario can be published as the plan', fix: 'run the scenario to COMPLETE first, or publish another' },
  PLAN_ALREADY_PUBLISHED: { status: 409, meaning: "the scenario is already the session's current plan", fix: 'nothing to do; withdraw it first to publish it again with another note' },
  PLAN_NOT_PUBLISHED: { status: 409, meaning: 'the session has no current plan to withdraw or re-plan from', fix: 'GET the plan: it was withdrawn already, or never published' },
  REBASE_CONFLICT: { status: 409, meaning: "some of the scenarios' data edits no longer fit the new data (a column gone, a key that would repeat, a where that matched rows before and matches none now); `conflicts` lists every one, and nothing was stored", fix: 'correct the edits (a branch with edits that fit), or rebase with on_conflict "skip" to leave those edits out (the new datasets record them)' },
  PLAN_SCENARIO_PROTECTED: { status: 409, meaning: "the scenario is the session's published plan: it cannot be reset, run, edited or deleted", fix: 'withdraw the plan (DELETE .../plan) or publish another scenario first' },
  PLAN_DATASET_PROTECTED: { status: 409, meaning: "the dataset is used by the session's published plan: the key cannot be deleted, nor the version the plan was computed on pruned (replacing it is allowed: docs/api/cycles.md)", fix: 'withdraw the plan first' },
  PLAN_SESSION_PROTECTED: { status: 409, meaning: 'the session has a published plan: it cannot be deleted', fix: 'withdraw the plan (DELETE .../plan) first' },
  TOO_LARGE: { status: 413, meaning: 'an upload is over its limit', fix: 'send smaller files, or raise upload_limit' },
  BODY_TOO_LARGE: { status: 413, meaning: 'the request body is over body_limit', fix: 'send a smaller body, or raise body_limit' },
  UPLOAD_TIME_LIMIT: { status: 413, meaning: 'the upload needed more time than upload_time_limit; its work was stopped and nothing was stored', fix: 'send a smaller or simpler file, or raise upload_time_limit' },
  EXPERIMENT_TOO_LARGE: { status: 413, meaning: 'the experiment would create more scenarios than max_experiment_size', fix: 'use fewer axis values or repeats, or raise max_experiment_size' },
  GATE_TOO_LARGE: { status: 413, meaning: 'the gate would create more scenarios than max_experiment_size (inputs × repeats × 2)', fix: 'use fewer inputs or repeats, or raise max_experiment_size' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'the body is of a content type the route does not take', fix: 'send the content type named in `detail`' },
  INVALID_REQUEST: { status: 422, meaning: 'the request fails its schema; `errors` lists each offending field', fix: 'correct each field in `errors`' },
  DATASET_EDITS_INVALID: { status: 422, meaning: "a derive's edits do not fit the dataset (unknown table or column, a value of the wrong type, a key repeated after the edit ...); `errors` lists every problem of every edit, and nothing was stored", fix: 'correct each edit at the path given in `errors` (`edits[3].update.set.daily_picks`)' },
  WEBHOOK_TARGET_REFUSED: { status: 422, meaning: 'the webhook URL points at an internal address (loopback, private, link-local ...)', fix: 'use a public receiver, or have an operator allow the range with webhook_allow_networks' },
  SCHEDULE_INVALID: { status: 422, meaning: 'a schedule is unusable: a cron that does not parse, an unknown time zone, an action naming a missing scenario or experiment, a threshold on an unknown KPI ...; `errors` lists each, and nothing was stored', fix: 'correct each field in `errors`; each says what to write instead' },
  VIEW_ERROR: { status: 422, meaning: 'a domain view threw or returned an unusable spec; the scenario or dataset is unchanged', fix: '`detail` names the view and its error; fix the view in the domain module' },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'the request line and headers are over the size limit', fix: 'send fewer or smaller headers' },
  INTERNAL_ERROR: { status: 500, meaning: 'the service failed, not the request', fix: 'retry; if it persists, report it with the server log' },
  UPLOAD_BUSY: { status: 503, meaning: 'every upload thread is busy and the wait for one ran out', fix: 'retry after the Retry-After seconds' },
  VIEW_BUSY: { status: 503, meaning: 'every view thread is busy drawing other views and the wait for one ran out', fix: 'retry after the Retry-After seconds' },
  STORE_UNAVAILABLE: { status: 503, meaning: 'the database cannot be reached or used at the moment (down, restarting, locked by another process, its disk failing)', fix: 'retry after the Retry-After seconds (a retried write may find its first attempt done: a 409 then says so); the server log names the cause' },
} as const satisfies Record<ErrorCode, ErrorSpec>;

export interface FieldError {
  readonly path: string;
  readonly message: string;
}

export class ScenaristError extends Error {
  override readonly name = 'ScenaristError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For INVALID_REQUEST and PARAMETER_INVALID: each offending field. */
    readonly fields: readonly FieldError[] = [],
    /** Further members of the error body, for a code that lists more than fields (REBASE_CONFLICT's `conflicts`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** Turns anything thrown (an Error, a string, undefined, ...) into an Error with a useful message. */
export function coerceError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new Error(thrown);
  if (thrown === undefined || thrown === null) return new Error(`threw ${String(thrown)}`);
  try {
    return new Error(`threw ${JSON.stringify(thrown)}`);
  } catch {
    return new Error(`threw ${Object.prototype.toString.call(thrown)}`);
  }
}
