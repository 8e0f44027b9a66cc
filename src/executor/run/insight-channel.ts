import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { InsightBatch } from './insight-recorder.js';
import { InsightBuffer } from './insight-buffer.js';

/**
 * The message channel a run's worker thread sends its `InsightBatch`es through. `port` goes to the
 * thread with the task; batches land in `buffer`. `drained` resolves once the final batch arrived or
 * the thread side is gone, so an outcome is recorded with everything the run said before it ended.
 */
export class InsightChannel {
  readonly buffer = new InsightBuffer();
  private readonly channel = new MessageChannel();
  private readonly done: Promise<void>;

  constructor() {
    const local = this.channel.port1;
    this.done = new Promise((resolve) => {
      local.on('message', (batch: InsightBatch) => {
        this.buffer.receive(batch);
        if (batch.final) {
          local.close();
          resolve();
        }
      });
      local.once('close', () => resolve());
    });
    // A run never keeps the process alive through its channel.
    local.unref();
  }

  /** The thread's end, to transfer with the task. */
  get port(): MessagePort {
    return this.channel.port2;
  }

  /**
   * Resolves when the final batch has arrived or the thread's end closed, or after `boundMs` (a
   * thread stopped before it could send its final batch), and closes the channel.
   */
  async drained(boundMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
    await Promise.race([this.done, bound]);
    clearTimeout(timer);
    this.channel.port1.close();
  }
}
