import { describe, expect, it } from 'vitest';
import { RunEvents } from '../../src/executor/events.js';
import { StatusCache } from '../../src/scenarios/status-cache.js';

/** Announces a new scenario `id` of `sessionId`, then the runs it went through: the cache learns it from those events alone. */
function announce(events: RunEvents, id: string, sessionId = 's1', through: 'CREATED' | 'PROCESSING' | 'COMPLETE' = 'CREATED', progress = 0): void {
  const ref = { scenarioId: id, sessionId };
  events.emit('run:created', { ...ref, tag: `tag ${id}` });
  if (through === 'CREATED') return;
  events.emit('run:queued', { ...ref, recovered: false });
  events.emit('run:started', { ...ref, attempt: 1, algorithm: 'Instant' });
  if (progress > 0) events.emit('run:progress', { ...ref, progress });
  if (through === 'COMPLETE') events.emit('run:completed', ref);
}

describe('the status cache', () => {
  const following = () => {
    const events = new RunEvents();
    const cache = new StatusCache();
    cache.follow(events);
    return { events, cache };
  };

  it('follows a run through queued, started, progress and completed', () => {
    const { events, cache } = following();
    announce(events, 'a');
    expect(cache.get('a')).toEqual({ id: 'a', sessionId: 's1', tag: 'tag a', status: 'CREATED', progress: 0, reportJson: null, errorCode: null });
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
    announce(events, 'a');
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
    announce(events, 'a', 's1', 'PROCESSING', 0.5);
    events.emit('run:failed', { scenarioId: 'a', sessionId: 's1', message: 'boom', code: 'ALGORITHM_ERROR' });
    expect(cache.get('a')).toMatchObject({ status: 'FAILED', progress: 0.5 });
  });

  it('goes back to CREATED with progress 0 on reset, and forgets a cancelled scenario', () => {
    const { events, cache } = following();
    announce(events, 'a', 's1', 'COMPLETE');
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
    const { events, cache } = following();
    announce(events, 'a', 's1');
    announce(events, 'b', 's1');
    announce(events, 'c', 's2');
    events.emit('session:deleted', { sessionId: 's1' });
    expect([cache.get('a'), cache.get('b'), cache.get('c')?.id]).toEqual([undefined, undefined, 'c']);
  });

  it('forgets a scenario deleted by a client, whatever its status', () => {
    const { events, cache } = following();
    announce(events, 'a', 's1', 'COMPLETE');
    events.emit('run:deleted', { scenarioId: 'a', sessionId: 's1', tag: 'tag a' });
    expect(cache.get('a')).toBeUndefined();
  });

  it('stops following when asked', () => {
    const events = new RunEvents();
    const cache = new StatusCache();
    const stop = cache.follow(events);
    announce(events, 'a');
    stop();
    events.emit('run:reset', { scenarioId: 'a', sessionId: 's1' });
    events.emit('run:queued', { scenarioId: 'a', sessionId: 's1', recovered: false });
    expect(cache.get('a')?.status).toBe('CREATED');
  });
});
