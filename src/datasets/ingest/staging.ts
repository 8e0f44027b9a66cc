import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ScenaristError } from '../../errors.js';

import { stagedFileName } from './staged-name.js';

/**
 * Request bodies and uploaded files on their way to the ingest workers: streamed to files under the data
 * directory as they arrive, so the HTTP thread never holds an upload, and removed when the request ends.
 * Their names carry the process that staged them, so that a crash's leftovers can be told apart at
 * start-up (`removeLeftoverUploads`).
 */
export class UploadStaging {
  private readonly paths: string[] = [];
  /** Stages not settled yet: their files may still be being created. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly dir: string) {}

  /**
   * Streams `source` to a new staged file; once more than `maxBytes` arrived, stops with the 413 that
   * `tooLarge` builds. Returns the file's path and size. Settles only once the file is closed.
   */
  stage(source: Readable, maxBytes: number, tooLarge: () => ScenaristError): Promise<{ path: string; bytes: number }> {
    const staged = this.write(source, maxBytes, tooLarge);
    const forget = (): void => void this.inFlight.delete(settled);
    const settled: Promise<void> = staged.then(forget, forget);
    this.inFlight.add(settled);
    return staged;
  }

  /**
   * Removes every staged file (whatever happened to the request), once every stage in flight has
   * settled. A stage aborted with its request (a client gone mid-upload) may not have created its file
   * yet: removed before then, the file would be created after its removal and stay until the next start.
   */
  async removeAll(): Promise<void> {
    while (this.inFlight.size > 0 || this.paths.length > 0) {
      await Promise.allSettled(this.inFlight);
      await Promise.all(this.paths.splice(0).map((path) => rm(path, { force: true })));
    }
  }

  private async write(source: Readable, maxBytes: number, tooLarge: () => ScenaristError): Promise<{ path: string; bytes: number }> {
    // Synchronous (a no-op once the folder exists), so the source is piped before anything else can
    // happen to it: a multipart parser may end or destroy a part stream at any later turn.
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, stagedFileName());
    this.paths.push(path);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > maxBytes ? tooLarge() : null, chunk);
      },
    });
    const file = createWriteStream(path);
    try {
      await pipeline(source, counter, file);
    } finally {
      // A failed pipeline settles without waiting for the file: destroyed while still opening, it is
      // created after that (and closed at once). Its creation must not come after the stage settled.
      await closed(file);
    }
    return { path, bytes };
  }
}

/** Resolves once the file stream has closed its file (or never had one open). */
function closed(file: WriteStream): Promise<void> {
  return file.closed ? Promise.resolve() : new Promise((resolve) => file.once('close', () => resolve()));
}

/** Where a server stages uploads: a folder of its data directory. */
export function stagingDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}
