import type { MessagePort } from 'node:worker_threads';
import type { ErrorCode, FieldError } from '../../errors.js';
import type { AuditDraft } from '../../model/audit/audit-scope.js';
import type { ViewTask, ViewTaskResult } from '../../views/view-task.js';
import type { EtlMessage } from '../etl/index.js';

/**
 * The work the HTTP layer hands off its thread: an ETL upload or a from-json body, staged as files
 * under the data directory. Tasks and results are plain data, so they cross to a worker thread as is.
 */

/** An uploaded file as staged on disk: its name as uploaded and where its bytes are. */
export interface StagedFile {
  readonly filename: string;
  readonly path: string;
}

export interface EtlTask {
  readonly kind: 'etl';
  readonly sessionId: string;
  readonly datasetName: string;
  readonly files: readonly StagedFile[];
}

export interface FromJsonTask {
  readonly kind: 'from-json';
  readonly sessionId: string;
  /** The request body, staged as a file. */
  readonly path: string;
}

/** A domain view is drawn on this pool too: its threads hold the domain and a store connection. */
export type IngestTask = EtlTask | FromJsonTask | ViewTask;

export interface EtlTaskResult {
  readonly success: boolean;
  readonly messages: EtlMessage[];
  /** Rows stored, over every table (the ETL rows metric); 0 when nothing was stored. */
  readonly rows: number;
}

export interface FromJsonTaskResult {
  /** The key the dataset was stored under (the one its JSON form carries). */
  readonly key: string;
}

export type TaskResult<T extends IngestTask> = T extends EtlTask ? EtlTaskResult : T extends ViewTask ? ViewTaskResult : FromJsonTaskResult;

/** A task's result, or the client error it ended with (a `ScenaristError` as data). */
export type TaskOutcome<R> = ({ readonly ok: true; readonly result: R } | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string; readonly fields: readonly FieldError[] } }) & {
  /** The request's audit entry was written with the task's write (see `AuditedTask`). */
  readonly audited?: boolean;
};

/**
 * A task as sent to a thread: with the audit draft of the request, written there with the task's write,
 * and the port on which the thread says it has begun the task (its own start done: see `createDataTaskPool`).
 */
export type AuditedTask<T extends IngestTask = IngestTask> = T & { readonly audit?: AuditDraft; readonly begun?: MessagePort };
