import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { ScenaristError } from '../../errors.js';
import { errors } from '../../error-factories.js';

export interface MultipartLimits {
  /** Bytes of one file. */
  readonly fileSize: number;
  readonly files: number;
  readonly fields: number;
  readonly fieldSize: number;
  readonly parts: number;
}

export interface MultipartHandlers {
  /** Consumes one file part (streams it somewhere); the body is done when every returned promise is. */
  file(fieldname: string, filename: string, stream: Readable): Promise<void>;
  field(fieldname: string, value: string): void;
}

/**
 * Reads a multipart/form-data request body part by part, handing each file on as a stream. Resolves
 * once the body is read and every file handler finished; rejects with a 400 for a body the parser
 * cannot read (no boundary, cut off, over a count limit), a 413 for a file over the size limit, or a
 * handler's own error. Nothing is buffered here beyond the parser's chunks.
 */
export function readMultipart(raw: IncomingMessage, limits: MultipartLimits, handlers: MultipartHandlers): Promise<void> {
  let parser: BusboyInstance;
  try {
    parser = new Busboy({ headers: raw.headers as BusboyHeaders, limits });
  } catch (err) {
    return Promise.reject(unreadable(err));
  }
  return new Promise((resolve, reject) => {
    const pending: Promise<void>[] = [];
    const files = new Set<Readable>();
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      raw.unpipe(parser);
      // The rest of the body is drained and dropped; open file streams end their handlers.
      raw.resume();
      for (const stream of files) stream.destroy();
      reject(err);
    };
    parser.on('file', (fieldname: string, stream: Readable, filename: string) => {
      if (settled) {
        stream.resume();
        return;
      }
      files.add(stream);
      stream.once('limit', () => fail(errors.uploadFileTooLarge(filename, limits.fileSize)));
      pending.push(handlers.file(fieldname, filename, stream).then(() => void files.delete(stream), (err: unknown) => fail(asClientError(err))));
    });
    parser.on('field', (fieldname: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (settled) return;
      if (valueTruncated) return fail(errors.multipartFieldTooLong(fieldname, limits.fieldSize));
      try {
        handlers.field(fieldname, value);
      } catch (err) {
        fail(err);
      }
    });
    parser.on('partsLimit', () => fail(errors.multipartTooMany('parts', limits.parts)));
    parser.on('filesLimit', () => fail(errors.multipartTooMany('files', limits.files)));
    parser.on('fieldsLimit', () => fail(errors.multipartTooMany('fields', limits.fields)));
    parser.on('error', (err: unknown) => fail(unreadable(err)));
    parser.on('finish', () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve();
      });
    });
    // A client that goes away mid-body never ends it: stop rather than wait forever.
    raw.once('close', () => {
      if (raw.readableAborted) fail(errors.multipartInterrupted());
    });
    raw.pipe(parser);
  });
}

function unreadable(err: unknown): ScenaristError {
  return errors.multipartUnreadable(err instanceof Error ? err.message : String(err));
}

/** Our errors pass; a file system error is the server's; any other stream error is the body's fault. */
function asClientError(err: unknown): unknown {
  if (err instanceof ScenaristError || typeof (err as { syscall?: unknown }).syscall === 'string') return err;
  return unreadable(err);
}
