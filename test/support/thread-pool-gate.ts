import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Deadline for a held thread to reach its blocking open (it is picked up as soon as a thread is free). */
const HOLD_DEADLINE_MS = 10_000;

/**
 * Holds every thread of libuv's pool (shared by the whole process: file system calls, DNS, zlib) in a
 * blocking open of a FIFO, so that file system calls made meanwhile wait in the pool's queue, in the
 * order they were made. Releasing one thread lets the queued calls run one after another: a test can so
 * decide when the file system work of the code under test happens, without timing. Linux and macOS
 * (`mkfifo`).
 */
export class ThreadPoolGate {
  private readonly held: { fifo: string; reader: Promise<FileHandle> }[];

  private constructor(private readonly dir: string) {
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? '') || 4;
    this.held = Array.from({ length: threads }, (_, i) => {
      const fifo = join(dir, `hold-${i}`);
      execFileSync('mkfifo', [fifo]);
      // Blocks its thread until a writer opens the FIFO.
      return { fifo, reader: open(fifo, 'r') };
    });
  }

  /** Closes the gate: every pool thread is (or is about to be) held; calls made from now on queue behind. */
  static close(): ThreadPoolGate {
    return new ThreadPoolGate(mkdtempSync(join(tmpdir(), 'scenarist-pool-gate-')));
  }

  /** Frees one thread; the calls queued behind the gate then run one at a time, in order. */
  async releaseOne(): Promise<void> {
    const next = this.held.shift();
    if (next) await release(next.fifo, next.reader);
  }

  /** Frees every thread still held and removes the FIFOs. */
  async releaseAll(): Promise<void> {
    while (this.held.length > 0) await this.releaseOne();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Opens the FIFO's writing end once its reader waits in open (never blocking this thread), then closes both. */
async function release(fifo: string, reader: Promise<FileHandle>): Promise<void> {
  const deadline = Date.now() + HOLD_DEADLINE_MS;
  let writer: number | undefined;
  while (writer === undefined) {
    try {
      writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      // ENXIO: no reader has it open yet, its thread is still busy with an earlier call.
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO' || Date.now() > deadline) throw err;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await (await reader).close();
  closeSync(writer);
}
