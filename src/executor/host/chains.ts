import type { RunRef } from '../events.js';
import type { ChainHandle } from './chain-task.js';

/**
 * The chains a run host's threads are on (see `chain-task.ts`), and what the executor asks of them
 * as a whole: which wait for their session's next run, telling one of them a run was queued, taking
 * their threads back, and stopping a cancelled run one of them may have claimed unheard.
 */
export class Chains {
  private readonly handles = new Set<ChainHandle>();

  add(handle: ChainHandle): void {
    this.handles.add(handle);
  }

  delete(handle: ChainHandle): void {
    this.handles.delete(handle);
  }

  /** How many chains wait on their threads for a run of their session (each holds a thread). */
  get lingering(): number {
    let count = 0;
    for (const chain of this.handles) if (chain.lingering) count++;
    return count;
  }

  /** Tells a chain lingering for `sessionId` that a run of it was queued; false when none lingers. */
  tellQueued(sessionId: string): boolean {
    for (const chain of this.handles) {
      if (chain.lingering && chain.sessionId === sessionId) {
        chain.tellQueued();
        return true;
      }
    }
    return false;
  }

  /**
   * A run being cancelled that is not hosted here: a chain of its session (running or waiting) may
   * have claimed it unheard, and stops it if it says so.
   */
  stopWhenClaimed(ref: RunRef): void {
    for (const chain of this.handles) if (chain.sessionId === ref.sessionId) chain.cancelled.add(ref.scenarioId);
  }

  /** Takes back the thread of one lingering chain (another session needs it), or of all of them. */
  releaseLingering(all = false): void {
    for (const chain of this.handles) {
      if (!chain.lingering) continue;
      chain.release();
      if (!all) return;
    }
  }
}
