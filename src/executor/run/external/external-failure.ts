/** The run error codes an external program's run can end with besides CANCELLED and TIME_LIMIT. */
export type ExternalFailureCode = 'ALGORITHM_ERROR' | 'OUTPUT_LIMIT' | 'LOG_LIMIT' | 'MEMORY_LIMIT';

/** Why an external program's run failed, with the run error code that names it. */
export class ExternalFailure extends Error {
  override readonly name = 'ExternalFailure';
  constructor(
    readonly code: ExternalFailureCode,
    message: string,
  ) {
    super(message);
  }
}
