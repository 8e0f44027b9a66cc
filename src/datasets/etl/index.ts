/** The ETL pipeline as a library: uploaded files in, typed tables and validation messages out. */
export { runEtl, type EtlOutcome } from './pipeline.js';
export { EtlInputError } from './errors.js';
export { DEFAULT_ETL_LIMITS, type EtlLimits } from './limits.js';
export { MESSAGES_PER_KIND, type EtlMessage, type Severity } from './messages.js';
export type { UploadedFile } from './upload.js';
