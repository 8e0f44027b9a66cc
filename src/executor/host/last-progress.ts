import type { RunEvents, RunRef } from '../events.js';
import type { RunningRun } from './running-run.js';

/**
 * Before a run's end is recorded: announces the progress it reported last, unless that was already
 * announced (the flush timer sends it only every few hundred milliseconds), and waits until the
 * report is logged. So the last progress reported always comes before the run's life-cycle event
 * (docs/api/events.md). A cancelled run is left alone: its canceller ends it, and a report that
 * reaches the log afterwards is dropped there.
 */
export async function logLastProgress(run: RunningRun, events: RunEvents): Promise<void> {
  if (run.stopReason === 'cancel') return;
  const ref: RunRef = { scenarioId: run.scenarioId, sessionId: run.sessionId };
  const progress = run.control.progress;
  if (progress > run.announcedProgress) {
    run.announcedProgress = progress;
    const report = run.insight.buffer.report;
    events.emit('run:progress', { ...ref, progress, ...(report ? { report } : {}) });
  }
  await events.progressRecorded(ref);
}
