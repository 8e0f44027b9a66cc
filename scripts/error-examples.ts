import { errors } from '../src/error-factories.js';
import type { ErrorCode } from '../src/errors.js';
import { transition } from '../src/store/run-state/state-machine.js';

/** The run state machine words its own refusals; the example asks it for one. */
const cancelRefusal = transition('COMPLETE', 'cancel');

/**
 * One message per code for docs/api/errors.md, each made by calling a factory with sample values, so
 * the page shows the wording the server sends. A code worded elsewhere has none (`undefined`): the ETL
 * codes, whose file problems the ETL readers word (EtlInputError, part of the public API), and
 * FORBIDDEN, which only a framework 403 without a code of its own would answer.
 */
export const ERROR_EXAMPLES: Readonly<Record<ErrorCode, string | undefined>> = {
  BAD_INPUT: errors.clientClosedUpload().message,
  HTTP_MALFORMED: errors.httpMalformed('both Content-Length and Transfer-Encoding are set').message,
  URL_MALFORMED: errors.urlMalformed().message,
  BODY_EMPTY: errors.datasetBodyEmpty().message,
  BODY_MALFORMED: errors.bodyNotJson('Unexpected end of JSON input').message,
  BODY_TOO_DEEP: errors.bodyTooDeep(100, 100).message,
  BODY_KEY_REFUSED: errors.bodyKeyRefused('settings.__proto__').message,
  NUL_CHARACTER: errors.parameterWithNul('sid').message,
  QUERY_INVALID: errors.scenarioSortInvalid('size').message,
  CURSOR_INVALID: errors.cursorOfOtherSort('created_at', '-tag').message,
  LAST_EVENT_ID_INVALID: errors.lastEventIdInvalid('latest').message,
  MULTIPART_INVALID: errors.uploadFieldUnexpected('file').message,
  UPLOAD_EMPTY: errors.uploadEmpty().message,
  DATASET_FORM_INVALID: errors.cellTypeInvalid('orders', 3, 'quantity', '"two"', 'number').message,
  ETL_INPUT_INVALID: undefined,
  ETL_SCHEMA_MISMATCH: undefined,
  UPLOAD_STRUCTURE_LIMIT: errors.bodyStructureLimit('at character 5120', 'a string is longer than 4096 bytes').message,
  PARAMETER_INVALID: errors.experimentParametersInvalid([{ path: 'axes.algo_params.horizon[1]', message: 'must be >= 1' }]).message,
  EXPERIMENT_AXES_INVALID: errors.experimentAxesInvalid([{ path: 'axes.algo_params.horizon', message: 'an axis needs at least one value' }]).message,
  EXPERIMENT_REPEATS_SEEDED: errors.repeatsSeeded('algo_params.seed', 'algo_params.seed', 5).message,
  RESULT_NOT_TABULAR: errors.resultNotTabular('greedy').message,
  TOKEN_MISSING: errors.tokenMissing(false).message,
  TOKEN_INVALID: errors.tokenInvalid().message,
  FORBIDDEN: undefined,
  TOKEN_SCOPE_INSUFFICIENT: errors.tokenScopeInsufficient('run', 'read').message,
  TOKEN_SESSION_MISMATCH: errors.boundTokenOtherSession().message,
  HOST_NOT_ALLOWED: errors.hostNotAllowed('evil.example').message,
  ORIGIN_NOT_ALLOWED: errors.originNotAllowed('https://evil.example').message,
  SESSION_CREATE_DISABLED: errors.sessionCreateDisabled().message,
  NOT_FOUND: errors.scenarioViewNotFound('42', 'gantt').message,
  ROUTE_NOT_FOUND: errors.routeNotFound('GET', '/api/v1/sesions').message,
  SESSION_NOT_FOUND: errors.sessionNotFound('spring-plan').message,
  SCENARIO_NOT_FOUND: errors.scenarioNotFound('42').message,
  DATASET_NOT_FOUND: errors.datasetNotFound('orders-2024').message,
  ALGORITHM_NOT_FOUND: errors.algorithmNotFound('greedy').message,
  TABLE_NOT_FOUND: errors.tableNotFound('orders-2024', 'lines', ['orders', 'customers']).message,
  WEBHOOK_NOT_FOUND: errors.webhookNotFound('7').message,
  EXPERIMENT_NOT_FOUND: errors.experimentNotFound('3').message,
  DASHBOARD_NOT_BUILT: errors.dashboardNotBuilt().message,
  REQUEST_TIMEOUT: errors.requestTimeout().message,
  CONFLICT: errors.datasetChangedWhileDrawn('orders-2024').message,
  SCENARIO_STATE_CONFLICT: cancelRefusal.allowed ? undefined : errors.scenarioStateConflict(cancelRefusal.reason).message,
  SCENARIO_BUSY: errors.scenarioBusy().message,
  RESULT_NOT_READY: errors.resultNotReady('42', 'PROCESSING').message,
  DATASET_IN_USE: errors.datasetInUse('orders-2024').message,
  TAG_TAKEN: errors.tagTaken('baseline').message,
  SESSION_NAME_TAKEN: errors.sessionNameTaken('spring-plan').message,
  DATASET_KEY_TAKEN: errors.datasetKeyTaken('orders-2024').message,
  EXPERIMENT_NAME_TAKEN: errors.experimentNameTaken('horizon-sweep').message,
  WEBHOOK_LIMIT_REACHED: errors.webhookLimitReached(20).message,
  TOO_LARGE: errors.uploadTooLarge(104857600).message,
  BODY_TOO_LARGE: errors.bodyTooLarge().message,
  UPLOAD_TIME_LIMIT: errors.uploadTimeLimit(60000).message,
  EXPERIMENT_TOO_LARGE: errors.experimentTooLarge(12000, 1000).message,
  UNSUPPORTED_MEDIA_TYPE: errors.mediaTypeUnsupported(['application/json'], 'text/plain').message,
  INVALID_REQUEST: errors.webhookUrlScheme('ftp').message,
  WEBHOOK_TARGET_REFUSED: errors.webhookTargetRefused('the host 10.0.0.5 is a private address').message,
  VIEW_ERROR: errors.viewFailed('gantt', 'Cannot read properties of undefined').message,
  HEADERS_TOO_LARGE: errors.headersTooLarge().message,
  INTERNAL_ERROR: errors.internalError().message,
  UPLOAD_BUSY: errors.poolBusy('upload', 2, 5).message,
  VIEW_BUSY: errors.poolBusy('view', 2, 5).message,
  STORE_UNAVAILABLE: errors.storeUnavailable(5).message,
};
