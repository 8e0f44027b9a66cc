import type { MessagePort } from 'node:worker_threads';
import type { ChainWord } from './chain-messages.js';

/**
 * What a chain's thread has heard from the main thread (`ChainWord`s), counted as they arrive, so that
 * a word meant for later (a `claim` while a run is still going) is neither lost nor mistaken for the
 * answer awaited now.
 */
export class MainThreadWords {
  private proceeds = 0;
  private claims = 0;
  private releasedFlag = false;
  private wake: (() => void) | undefined;

  constructor(port: MessagePort) {
    port.on('message', (word: ChainWord) => {
      if (word.kind === 'proceed') this.proceeds++;
      else if (word.kind === 'claim') this.claims++;
      else this.releasedFlag = true;
      this.wake?.();
    });
  }

  /** Whether the main thread took the thread back for another session. */
  get released(): boolean {
    return this.releasedFlag;
  }

  /** Resolves on the main thread's next `proceed`. */
  async proceeded(): Promise<void> {
    while (this.proceeds === 0) await this.changed(undefined);
    this.proceeds--;
  }

  /** True once told a run was queued (every such word heard so far counts as one); false on a release or after `ms`. */
  async toldToClaim(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.claims === 0 && !this.releasedFlag) {
      const left = deadline - Date.now();
      if (left <= 0 || !(await this.changed(left))) return false;
    }
    if (this.releasedFlag) return false;
    this.claims = 0;
    return true;
  }

  /** Resolves true when a word arrives, false after `ms` (when given). */
  private changed(ms: number | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => settle(false), ms);
      const settle = (heard: boolean) => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(heard);
      };
      this.wake = () => settle(true);
    });
  }
}
