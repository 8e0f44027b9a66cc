import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ScenaristError } from '../../errors.js';
import { stagedFileName } from './staged-name.js';

/**
 * Request bodies and uploaded files on their way to the ingest workers: streamed to files under the data
 * directory as they arrive, so the HTTP thread never holds an upload, and removed when the request ends.
 * Their names carry the process that staged them, so that a crash's leftovers can be told apart at
 * start-up (`removeLeftoverUploads`).
 */
export class UploadStaging {
  private readonly paths: string[] = [];

  constructor(private readonly dir: string) {}

  /**
   * Streams `source` to a new staged file; once more than `maxBytes` arrived, stops with a 413 whose
   * detail is `tooLarge`. Returns the file's path and size.
   */
  async stage(source: Readable, maxBytes: number, tooLarge: string): Promise<{ path: string; bytes: number }> {
    // Synchronous (a no-op once the folder exists), so the source is piped before anything else can
    // happen to it: a multipart parser may end or destroy a part stream at any later turn.
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, stagedFileName());
    this.paths.push(path);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > maxBytes ? new ScenaristError('TOO_LARGE', tooLarge) : null, chunk);
      },
    });
    await pipeline(source, counter, createWriteStream(path));
    return { path, bytes };
  }

  /** Removes every staged file (whatever happened to the request). */
  async removeAll(): Promise<void> {
    await Promise.all(this.paths.splice(0).map((path) => rm(path, { force: true })));
  }
}

/** Where a server stages uploads: a folder of its data directory. */
export function stagingDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}
