import type { EventFacts } from '../model/event-types.js';

interface Slot {
  lastAt: number;
  pending: EventFacts | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * At most one progress event per scenario per interval: a report inside the interval replaces the
 * one waiting, which goes out when the interval ends. `settle` lets the waiting one out at once,
 * before the run's end is recorded, so the last progress always precedes its life-cycle event.
 */
export class ProgressThrottle {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly intervalMs: number,
    private readonly release: (facts: EventFacts) => void,
  ) {}

  report(scenarioId: string, facts: EventFacts): void {
    const now = Date.now();
    let slot = this.slots.get(scenarioId);
    if (!slot) {
      slot = { lastAt: 0, pending: undefined, timer: undefined };
      this.slots.set(scenarioId, slot);
    }
    if (slot.timer === undefined && now - slot.lastAt >= this.intervalMs) {
      slot.lastAt = now;
      this.release(facts);
      return;
    }
    slot.pending = facts;
    if (slot.timer === undefined) {
      const due = slot;
      due.timer = setTimeout(() => this.releasePending(scenarioId, due), this.intervalMs - (now - slot.lastAt));
      due.timer.unref();
    }
  }

  /** Before any other event of the scenario: its waiting progress goes first; `ended` forgets it. */
  settle(scenarioId: string, ended: boolean): void {
    const slot = this.slots.get(scenarioId);
    if (!slot) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (slot.pending) this.release(slot.pending);
    slot.pending = undefined;
    if (ended) this.slots.delete(scenarioId);
  }

  /** Drops the scenario's waiting report: a life-cycle event made it out of date. */
  forget(scenarioId: string): void {
    const slot = this.slots.get(scenarioId);
    if (!slot) return;
    clearTimeout(slot.timer);
    this.slots.delete(scenarioId);
  }

  /** Lets every waiting report out (shutdown). */
  settleAll(): void {
    for (const id of [...this.slots.keys()]) this.settle(id, true);
  }

  private releasePending(scenarioId: string, slot: Slot): void {
    slot.timer = undefined;
    if (!slot.pending) return;
    const facts = slot.pending;
    slot.pending = undefined;
    slot.lastAt = Date.now();
    if (this.slots.get(scenarioId) === slot) this.release(facts);
  }
}
