import { etlErrors } from '../src/datasets/etl/error-factories.js';
import { errors } from '../src/error-factories.js';
import type { ErrorCode, ScenaristError } from '../src/errors.js';
import { transition } from '../src/model/run-state/state-machine.js';

/** The run state machine words its own refusals; the example asks it for one. */
const cancelRefusal = transition('COMPLETE', 'cancel');

/**
 * One error per code for docs/api/errors.md, each made by calling a factory with sample values, so
 * the page shows the wording the server sends (the upload codes' by the upload code's own factories,
 * which build the EtlInputError the pipeline needs). A code worded elsewhere has none (`undefined`):
 * FORBIDDEN, which only a framework 403 without a code of its own would answer.
 */
export const ERROR_EXAMPLES: Readonly<Record<ErrorCode, ScenaristError | undefined>> = {
  BAD_INPUT: errors.clientClosedUpload(),
  HTTP_MALFORMED: errors.httpMalformed('both Content-Length and Transfer-Encoding are set'),
  URL_MALFORMED: errors.urlMalformed(),
  BODY_EMPTY: errors.datasetBodyEmpty(),
  BODY_MALFORMED: errors.bodyNotJson('Unexpected end of JSON input'),
  BODY_TOO_DEEP: errors.bodyTooDeep(100, 100),
  BODY_KEY_REFUSED: errors.bodyKeyRefused('settings.__proto__'),
  NUL_CHARACTER: errors.parameterWithNul('sid'),
  QUERY_INVALID: errors.scenarioSortInvalid('size'),
  CURSOR_INVALID: errors.cursorOfOtherSort('created_at', '-tag'),
  LAST_EVENT_ID_INVALID: errors.lastEventIdInvalid('latest'),
  MULTIPART_INVALID: errors.uploadFieldUnexpected('file'),
  UPLOAD_EMPTY: errors.uploadEmpty(),
  DATASET_FORM_INVALID: errors.cellTypeInvalid('orders', 3, 'quantity', '"two"', 'number'),
  ETL_INPUT_INVALID: etlErrors.fileNotUtf8('orders.csv'),
  ETL_SCHEMA_MISMATCH: etlErrors.jsonNoTableOfGroup('orders.json', 'orders', ['orders', 'order_lines']),
  UPLOAD_STRUCTURE_LIMIT: errors.bodyStructureLimit('at character 5120', 'a string is longer than 4096 bytes'),
  PARAMETER_INVALID: errors.experimentParametersInvalid([{ path: 'axes.algo_params.horizon[1]', message: 'must be >= 1' }]),
  EXPERIMENT_AXES_INVALID: errors.experimentAxesInvalid([{ path: 'axes.algo_params.horizon', message: 'an axis needs at least one value' }]),
  EXPERIMENT_REPEATS_SEEDED: errors.repeatsSeeded('algo_params.seed', 'algo_params.seed', 5),
  RESULT_NOT_TABULAR: errors.resultNotTabular('greedy'),
  TOKEN_MISSING: errors.tokenMissing(false),
  TOKEN_INVALID: errors.tokenInvalid(),
  FORBIDDEN: undefined,
  TOKEN_SCOPE_INSUFFICIENT: errors.tokenScopeInsufficient('run', 'read'),
  TOKEN_SESSION_MISMATCH: errors.boundTokenOtherSession(),
  HOST_NOT_ALLOWED: errors.hostNotAllowed('evil.example'),
  ORIGIN_NOT_ALLOWED: errors.originNotAllowed('https://evil.example'),
  SESSION_CREATE_DISABLED: errors.sessionCreateDisabled(),
  NOT_FOUND: errors.scenarioViewNotFound('42', 'gantt'),
  ROUTE_NOT_FOUND: errors.routeNotFound('GET', '/api/v1/sesions'),
  SESSION_NOT_FOUND: errors.sessionNotFound('spring-plan'),
  SCENARIO_NOT_FOUND: errors.scenarioNotFound('42'),
  DATASET_NOT_FOUND: errors.datasetNotFound('orders-2024'),
  ALGORITHM_NOT_FOUND: errors.algorithmNotFound('greedy'),
  TABLE_NOT_FOUND: errors.tableNotFound('orders-2024', 'lines', ['orders', 'customers']),
  WEBHOOK_NOT_FOUND: errors.webhookNotFound('7'),
  EXPERIMENT_NOT_FOUND: errors.experimentNotFound('3'),
  DASHBOARD_NOT_BUILT: errors.dashboardNotBuilt(),
  REQUEST_TIMEOUT: errors.requestTimeout(),
  CONFLICT: errors.datasetChangedWhileDrawn('orders-2024'),
  SCENARIO_STATE_CONFLICT: cancelRefusal.allowed ? undefined : errors.scenarioStateConflict(cancelRefusal.reason),
  SCENARIO_BUSY: errors.scenarioBusy(),
  RESULT_NOT_READY: errors.resultNotReady('42', 'PROCESSING'),
  DATASET_IN_USE: errors.datasetInUse('orders-2024'),
  TAG_TAKEN: errors.tagTaken('baseline'),
  SESSION_NAME_TAKEN: errors.sessionNameTaken('spring-plan'),
  DATASET_KEY_TAKEN: errors.datasetKeyTaken('orders-2024'),
  EXPERIMENT_NAME_TAKEN: errors.experimentNameTaken('horizon-sweep'),
  WEBHOOK_LIMIT_REACHED: errors.webhookLimitReached(20),
  TOO_LARGE: errors.uploadTooLarge(104857600),
  BODY_TOO_LARGE: errors.bodyTooLarge(),
  UPLOAD_TIME_LIMIT: errors.uploadTimeLimit(60000),
  EXPERIMENT_TOO_LARGE: errors.experimentTooLarge(12000, 1000),
  UNSUPPORTED_MEDIA_TYPE: errors.mediaTypeUnsupported(['application/json'], 'text/plain'),
  INVALID_REQUEST: errors.webhookUrlScheme('ftp'),
  WEBHOOK_TARGET_REFUSED: errors.webhookTargetRefused('the host 10.0.0.5 is a private address'),
  VIEW_ERROR: errors.viewFailed('gantt', 'Cannot read properties of undefined'),
  HEADERS_TOO_LARGE: errors.headersTooLarge(),
  INTERNAL_ERROR: errors.internalError(),
  UPLOAD_BUSY: errors.poolBusy('upload', 2, 5),
  VIEW_BUSY: errors.poolBusy('view', 2, 5),
  STORE_UNAVAILABLE: errors.storeUnavailable(5),
};
