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
  /** The thread's end, while this side made the channel. */
  private readonly remote: MessagePort | undefined;
  private readonly local: MessagePort;
  private readonly done: Promise<void>;

  /** A new channel; or, given `adopted`, this side's end of one a run thread made (for a run it claimed itself). */
  constructor(adopted?: MessagePort) {
    let local: MessagePort;
    if (adopted === undefined) {
      const channel = new MessageChannel();
      local = channel.port1;
      this.remote = channel.port2;
    } else {
      local = adopted;
    }
    this.local = local;
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
    if (this.remote === undefined) throw new Error('insight channel: the thread made this channel and holds its other end');
    return this.remote;
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
    this.local.close();
  }
}
