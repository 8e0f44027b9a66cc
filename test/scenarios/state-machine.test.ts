import { describe, expect, it } from 'vitest';
import { fromStates, STATUSES, targetOf, transition, type ScenarioEvent, type ScenarioStatus } from '../../src/model/run-state/state-machine.js';

/** Every allowed row: the spec's table, plus restart recovery (docs/api/contract.md). */
const ALLOWED: [ScenarioStatus, ScenarioEvent, ScenarioStatus][] = [
  ['CREATED', 'run', 'QUEUED'],
  ['QUEUED', 'start', 'PROCESSING'],
  ['PROCESSING', 'complete', 'COMPLETE'],
  ['PROCESSING', 'fail', 'FAILED'],
  ['COMPLETE', 'reset', 'CREATED'],
  ['FAILED', 'reset', 'CREATED'],
  ['CREATED', 'reset', 'CREATED'],
  ['PROCESSING', 'requeue', 'QUEUED'],
  ['QUEUED', 'cancel', 'FAILED'],
  ['PROCESSING', 'cancel', 'FAILED'],
];
const EVENTS: ScenarioEvent[] = ['run', 'start', 'complete', 'fail', 'reset', 'requeue', 'cancel'];

describe('the scenario state machine', () => {
  it.each(ALLOWED)('moves %s on %s to %s', (from, event, to) => {
    expect(transition(from, event)).toEqual({ allowed: true, to, changed: from !== to });
  });

  it('treats reset of a CREATED scenario as a no-op', () => {
    expect(transition('CREATED', 'reset')).toEqual({ allowed: true, to: 'CREATED', changed: false });
  });

  it.each(['QUEUED', 'PROCESSING'] as const)('rejects reset while %s with a reason', (from) => {
    const next = transition(from, 'reset');
    expect(next.allowed).toBe(false);
    expect(next.allowed === false && next.reason).toContain(from);
  });

  it.each(['QUEUED', 'PROCESSING', 'COMPLETE', 'FAILED'] as const)('rejects run while %s with a reason', (from) => {
    const next = transition(from, 'run');
    expect(next.allowed).toBe(false);
    expect(next.allowed === false && next.reason).toContain(from);
  });

  it('tells a client to reset a finished scenario before running it again', () => {
    const next = transition('COMPLETE', 'run');
    expect(next.allowed === false && next.reason).toContain('reset');
  });

  it('allows nothing beyond the listed rows', () => {
    const allowed = STATUSES.flatMap((from) =>
      EVENTS.flatMap((event) => {
        const next = transition(from, event);
        return next.allowed ? [[from, event, next.to]] : [];
      }),
    );
    expect(allowed).toHaveLength(ALLOWED.length);
    expect(allowed).toEqual(expect.arrayContaining(ALLOWED));
  });

  it('gives every refusal a reason', () => {
    for (const from of STATUSES) {
      for (const event of EVENTS) {
        const next = transition(from, event);
        if (!next.allowed) expect(next.reason.length).toBeGreaterThan(10);
      }
    }
  });

  it('derives the from-states of each conditional update, leaving out the no-op', () => {
    expect(fromStates('run')).toEqual(['CREATED']);
    expect(fromStates('start')).toEqual(['QUEUED']);
    expect(fromStates('complete')).toEqual(['PROCESSING']);
    expect(fromStates('fail')).toEqual(['PROCESSING']);
    expect(fromStates('reset')).toEqual(['COMPLETE', 'FAILED']);
    expect(fromStates('requeue')).toEqual(['PROCESSING']);
    expect(targetOf('reset')).toBe('CREATED');
    expect(targetOf('run')).toBe('QUEUED');
  });
});
