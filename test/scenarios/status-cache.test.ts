import { describe, expect, it } from 'vitest';
import { RunEvents } from '../../src/executor/events.js';
import { StatusCache } from '../../src/scenarios/status-cache.js';
import type { ScenarioRecord } from '../../src/store/scenarios-repository.js';

const record = (id: string, sessionId = 's1'): ScenarioRecord => ({
  id,
  sessionId,
  tag: `tag ${id}`,
  datasetKey: 'example',
  algoName: 'Instant',
  algoParamsJson: '{}',
  dataParamsJson: '{}',
  status: 'CREATED',
  progress: 0,
  resultJson: null,
  kpiValuesJson: null,
  error: null,
  errorCode: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  reportJson: null,
  seed: null,
  parentId: null,
});

describe('the status cache', () => {
  const following = () => {
    const events = new RunEvents();
    const cache = new StatusCache();
    cache.follow(events);
    return { events, cache };
  };

  it('follows a run through queued, started, progress and completed', () => {
    const { events, cache } = following();
    cache.written(record('a'));
    const ref = { scenarioId: 'a', sessionId: 's1' };
    events.emit('run:queued', { ...ref, recovered: false });
    expect(cache.get('a')).toMatchObject({ status: 'QUEUED', progress: 0 });
    events.emit('run:started', { ...ref, attempt: 1, algorithm: 'Sum' });
    events.emit('run:progress', { ...ref, progress: 0.25 });
    expect(cache.get('a')).toMatchObject({ status: 'PROCESSING', progress: 0.25 });
    events.emit('run:completed', ref);
    expect(cache.get('a')).toEqual({ id: 'a', sessionId: 's1', tag: 'tag a', status: 'COMPLETE', progress: 1, reportJson: null, errorCode: null });
  });

  it('follows the latest report of a run, keeps it when a cancel announces none, and clears it on reset', () => {
    const { events, cache } = following();
    cache.written(record('a'));
    const ref = { scenarioId: 'a', sessionId: 's1' };
    const report = { objective: 3, best_so_far: 2, message: null, at: '2026-01-01T00:00:00.000Z' };
    events.emit('run:started', { ...ref, attempt: 1, algorithm: 'Sum' });
    events.emit('run:progress', { ...ref, progress: 0.5, report });
    expect(cache.get('a')?.reportJson).toBe(JSON.stringify(report));
    events.emit('run:failed', { ...ref, message: 'cancelled', code: 'CANCELLED' });
    expect(cache.get('a')).toMatchObject({ status: 'FAILED', reportJson: JSON.stringify(report) });
    events.emit('run:reset', ref);
    expect(cache.get('a')?.reportJson).toBeNull();
    events.emit('run:started', { ...ref, attempt: 1, algorithm: 'Sum' });
    events.emit('run:completed', { ...ref, report: { ...report, objective: 1 } });
    expect(cache.get('a')?.reportJson).toBe(JSON.stringify({ ...report, objective: 1 }));
  });

  it('keeps the last written progress of a failed run, as its row does', () => {
    const { events, cache } = following();
    cache.written({ ...record('a'), status: 'PROCESSING', progress: 0.5 });
    events.emit('run:failed', { scenarioId: 'a', sessionId: 's1', message: 'boom', code: 'ALGORITHM_ERROR' });
    expect(cache.get('a')).toMatchObject({ status: 'FAILED', progress: 0.5 });
  });

  it('goes back to CREATED with progress 0 on reset, and forgets a cancelled scenario', () => {
    const { events, cache } = following();
    cache.written({ ...record('a'), status: 'COMPLETE', progress: 1 });
    events.emit('run:reset', { scenarioId: 'a', sessionId: 's1' });
    expect(cache.get('a')).toMatchObject({ status: 'CREATED', progress: 0 });
    events.emit('run:cancelled', { scenarioId: 'a', sessionId: 's1' });
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not invent an entry for a run it never held: the next read goes to the database', () => {
    const { events, cache } = following();
    events.emit('run:started', { scenarioId: 'unknown', sessionId: 's1', attempt: 1, algorithm: 'Sum' });
    expect(cache.get('unknown')).toBeUndefined();
  });

  it('forgets every scenario of a deleted session and no other', () => {
    const cache = new StatusCache();
    cache.written(record('a', 's1'));
    cache.written(record('b', 's1'));
    cache.written(record('c', 's2'));
    cache.sessionDeleted('s1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')?.id]).toEqual([undefined, undefined, 'c']);
  });

  it('stops following when asked', () => {
    const events = new RunEvents();
    const cache = new StatusCache();
    const stop = cache.follow(events);
    cache.written(record('a'));
    stop();
    events.emit('run:reset', { scenarioId: 'a', sessionId: 's1' });
    events.emit('run:queued', { scenarioId: 'a', sessionId: 's1', recovered: false });
    expect(cache.get('a')?.status).toBe('CREATED');
  });
});
