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

/** An `EtlInputError` whose message starts with the file's name, so the client knows which upload to fix. */
export function fileError(file: string, problem: string, code?: 'ETL_SCHEMA_MISMATCH'): EtlInputError {
  return new EtlInputError(`file '${file}': ${problem}`, file, code);
}

/**
 * A file whose structure passes the `maxFieldBytes` limit (a row, cell, record or run of text): a 400 with
 * the code `UPLOAD_STRUCTURE_LIMIT`, its message naming the file and where in it (sheet, row or line).
 */
export function structureError(file: string, where: string, problem: string): EtlInputError {
  return new EtlInputError(`file '${file}', ${where}: ${problem}`, file, 'UPLOAD_STRUCTURE_LIMIT');
}
