import type { Kysely } from 'kysely';
import type { RunEvents, RunRef } from '../executor/events.js';
import type { Database } from '../store/database.js';
import { algorithmOf as readAlgorithm } from '../store/metrics-queries.js';
import type { ServiceMetrics } from './service-metrics.js';

/** The algorithm label of a run whose scenario was gone before it could be read. */
const UNKNOWN = 'unknown';

interface Started {
  readonly algorithm: string;
  readonly at: number;
}

/**
 * Counts runs from the run events of this process (the typed listener the executor already feeds):
 * started, ended by final status, and their duration, each by algorithm. A start names its
 * algorithm; a run that ends without a start here (cancelled while queued, or started by another
 * process) has its algorithm read by primary key. Returns the function that stops.
 */
export function followRuns(events: RunEvents, db: Kysely<Database>, metrics: ServiceMetrics): () => void {
  const running = new Map<string, Started>();
  const algorithmOf = (ref: RunRef): Promise<string> =>
    readAlgorithm(db, ref.scenarioId).then(
      (algorithm) => algorithm ?? UNKNOWN,
      () => UNKNOWN,
    );

  const ended = (ref: RunRef, status: 'complete' | 'failed' | 'cancelled') => {
    const started = running.get(ref.scenarioId);
    running.delete(ref.scenarioId);
    const seconds = started === undefined ? undefined : (performance.now() - started.at) / 1000;
    void (started ? Promise.resolve(started.algorithm) : algorithmOf(ref)).then((algorithm) => {
      metrics.runsEnded.inc({ status, algorithm });
      if (seconds !== undefined) metrics.runDuration.observe({ algorithm }, seconds);
    });
  };

  const stops = [
    events.on('run:started', ({ scenarioId, algorithm }) => {
      running.set(scenarioId, { algorithm, at: performance.now() });
      metrics.runsStarted.inc({ algorithm });
    }),
    events.on('run:completed', (ref) => ended(ref, 'complete')),
    events.on('run:failed', (event) => ended(event, event.code === 'CANCELLED' ? 'cancelled' : 'failed')),
    // Deleted while queued or running: it never ends otherwise. A queued one never started here.
    events.on('run:cancelled', (ref) => {
      if (running.has(ref.scenarioId)) ended(ref, 'cancelled');
    }),
  ];
  return () => {
    for (const stop of stops) stop();
    running.clear();
  };
}
