import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RunEvents } from '../../src/executor/events.js';
import { ExperimentProgress } from '../../src/experiments/progress-tracker.js';
import { changeFor } from '../../src/model/run-state/changes.js';
import type { Store } from '../../src/store/store.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }], rows: [['a']] } });

/** A session with an experiment of `size` scenarios, all queued; answers their ids in order. */
async function queuedExperiment(store: Store, size: number): Promise<{ sessionId: string; experimentId: string; ids: string[] }> {
  const sessionId = randomUUID();
  const experimentId = randomUUID();
  const now = new Date().toISOString();
  await store.sessions.insert({ id: sessionId, displayName: sessionId, createdAt: now });
  await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
  const scenarios = Array.from({ length: size }, (_, i) => ({
    id: randomUUID(),
    tag: `sweep/${i + 1}`,
    datasetKey: 'items',
    algoParamsJson: '{}',
    dataParamsJson: '{}',
    combo: 0,
    axisValuesJson: '[]',
  }));
  const refusal = await store.experiments.create({
    id: experimentId,
    sessionId,
    name: 'sweep',
    algoName: 'Instant',
    specJson: '{}',
    createdAt: now,
    scenarios,
    datasetKeys: ['items'],
    queue: true,
  });
  expect(refusal).toBeUndefined();
  return { sessionId, experimentId, ids: scenarios.map((s) => s.id) };
}

/** Claims the queued scenario `id` and completes its run, as an executor does. */
async function runToCompletion(store: Store, id: string): Promise<void> {
  const runToken = randomUUID();
  expect((await store.runs.claim(id, runToken))?.id).toBe(id);
  expect(await store.runs.complete({ id, runToken }, { resultJson: '{}', kpis: {} }, new Date().toISOString())).toBe(true);
}

/**
 * The completion of an experiment must not depend on what the progress tracker happened to see in
 * between: a rerun that queues, runs and ends before the tracker's next look (it looks at most 4 times
 * a second) still completes the experiment again. The tracker here follows run events it is told after
 * the fact, so the rerun is over before it reads anything, whatever the machine's speed.
 */
describe.each(DIALECTS)('experiment.completed after a rerun on %s', (dialect) => {
  const store = useTestStore(dialect);

  const completions = async (experimentId: string) =>
    (await store().db.selectFrom('event_log').select(['type', 'data']).where('type', '=', 'experiment.completed').orderBy('id').execute()).filter(
      (row) => (JSON.parse(row.data) as { experiment_id: string }).experiment_id === experimentId,
    );

  /** Lets a tracker see `emit`'s run events, then stops it (which settles what it saw). */
  async function trackerSees(tracker: ExperimentProgress, emit: (events: RunEvents) => void): Promise<void> {
    const events = new RunEvents();
    const stop = tracker.follow(events);
    emit(events);
    await stop();
  }

  it('logs experiment.completed again, with a new completed_at, when a finished experiment is rerun faster than the tracker looks', async () => {
    const { sessionId, experimentId, ids } = await queuedExperiment(store(), 2);
    const tracker = new ExperimentProgress(store().experiments, () => {}, pino({ level: 'silent' }));
    for (const id of ids) await runToCompletion(store(), id);
    await trackerSees(tracker, (events) => {
      for (const id of ids) events.emit('run:completed', { scenarioId: id, sessionId });
    });
    expect(await completions(experimentId)).toHaveLength(1);
    const first = (await store().experiments.get(sessionId, experimentId))!.completedAt;
    expect(first).not.toBeNull();

    // Reset one COMPLETE scenario and run it again, all before the tracker reads a thing.
    const ref = { sessionId, id: ids[0]! };
    expect(await store().runs.reset(ref, changeFor('reset'))).toBeDefined();
    expect(await store().runs.queue(ref, changeFor('run'), new Date().toISOString())).toBeDefined();
    expect((await store().experiments.get(sessionId, experimentId))!.completedAt).toBeNull();
    await runToCompletion(store(), ref.id);
    await trackerSees(tracker, (events) => {
      events.emit('run:reset', { scenarioId: ref.id, sessionId });
      events.emit('run:queued', { scenarioId: ref.id, sessionId, recovered: false });
      events.emit('run:started', { scenarioId: ref.id, sessionId, attempt: 1, algorithm: 'Instant' });
      events.emit('run:completed', { scenarioId: ref.id, sessionId });
    });

    const logged = await completions(experimentId);
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[1]!.data)).toMatchObject({ counts: { COMPLETE: 2, QUEUED: 0, PROCESSING: 0 } });
    const again = (await store().experiments.get(sessionId, experimentId))!.completedAt;
    expect(again).not.toBeNull();
    expect(again! > first!).toBe(true);
  });

  it('does not complete an experiment that a scenario was queued in after the tracker read its counts', async () => {
    const { sessionId, experimentId, ids } = await queuedExperiment(store(), 2);
    for (const id of ids) await runToCompletion(store(), id);
    const seen = await store().experiments.progressRead(sessionId, experimentId);
    // A client queues a rerun between the tracker's read and its claim of the completion.
    const ref = { sessionId, id: ids[1]! };
    await store().runs.reset(ref, changeFor('reset'));
    await store().runs.queue(ref, changeFor('run'), new Date().toISOString());
    expect(await store().experiments.markCompleted(experimentId, sessionId, new Date().toISOString(), seen, [])).toBe(false);
    expect((await store().experiments.get(sessionId, experimentId))!.completedAt).toBeNull();
  });
});
