import { ScenaristError } from '../../errors.js';

/**
 * A request-level ETL failure (HTTP 400): the upload as a whole cannot be processed, e.g. no files, an
 * unsupported extension, or a file that cannot be read at all. Problems inside a readable file are
 * reported as `EtlMessage`s instead, so the client sees every one of them at once.
 */
export class EtlInputError extends ScenaristError {
  constructor(
    message: string,
    /** The uploaded file name the error is about, when it is about one file. */
    readonly file?: string,
    code: 'ETL_INPUT_INVALID' | 'ETL_SCHEMA_MISMATCH' | 'UPLOAD_STRUCTURE_LIMIT' = 'ETL_INPUT_INVALID',
  ) {
    super(code, message);
  }
}
