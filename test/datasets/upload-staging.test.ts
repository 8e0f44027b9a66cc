import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UploadStaging } from '../../src/datasets/ingest/staging.js';
import { errors } from '../../src/error-factories.js';
import { ThreadPoolGate } from '../support/thread-pool-gate.js';
import { scratchDirs } from '../support/scratch-dirs.js';

const stagingFolder = scratchDirs('scenarist-staging-');

/**
 * An upload aborted by its client left its staged file behind until the server restarted (one in 18,791
 * in a stress run). A failed pipeline settles without waiting for its file stream: the stage failed at
 * once, before its file was even created (the open still waiting for a pool thread, or running on one),
 * so the request's clean-up could look for the file before it existed. The gate holds the open back at
 * exactly that step.
 */
describe('staging an upload whose client goes away', () => {
  it('settles only once its file exists and is closed, so no file appears after it and the clean-up finds it', async () => {
    const dir = stagingFolder();
    const staging = new UploadStaging(dir);
    const gate = ThreadPoolGate.close();
    try {
      const source = new PassThrough();
      let filesWhenSettled: string[] | undefined;
      const staged = staging.stage(source, 1024, () => errors.uploadTooLarge(1024))
.then(
        () => undefined,
        (err: unknown) => {
          filesWhenSettled = readdirSync(dir);
          return err;
        },
      );
      // The client is gone while the staged file's open still waits behind the gate...
      source.destroy(new Error('the client went away'));
      // ...and its error has gone through the pipeline (ticks and microtasks, no I/O) before a thread is free.
      await new Promise((resolve) => setImmediate(resolve));
      await gate.releaseOne();
      expect(await staged).toMatchObject({ message: 'the client went away' });
      // With one pool thread free, calls run in the order made: once this one has, so has the file's open.
      await stat(dir);
      expect(readdirSync(dir)).toEqual(filesWhenSettled);
      await staging.removeAll();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await gate.releaseAll();
    }
  });
});
