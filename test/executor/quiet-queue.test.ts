import { describe, expect, it } from 'vitest';
import { QuietQueue } from '../../src/executor/local/quiet-queue.js';

const ref = (scenarioId: string, sessionId: string) => ({ scenarioId, sessionId });

describe('what the executor knows of its queue without looking', () => {
  it('knows nothing before any look', () => {
    const quiet = new QuietQueue();
    expect(quiet.isQuiet([])).toBe(false);
    expect(quiet.loneHead([], [])).toBeUndefined();
  });

  it('covers any look that excludes at least the proven sessions', () => {
    const quiet = new QuietQueue();
    quiet.nothingOutside(quiet.beforeLook(), ['a']);
    expect(quiet.isQuiet(['a'])).toBe(true);
    expect(quiet.isQuiet(['a', 'b'])).toBe(true);
    expect(quiet.isQuiet([])).toBe(false);
    expect(quiet.isQuiet(['b'])).toBe(false);
  });

  it('keeps the proof when a scenario of a proven session is queued', () => {
    const quiet = new QuietQueue();
    quiet.nothingOutside(quiet.beforeLook(), ['a']);
    quiet.queued(ref('x', 'a'));
    expect(quiet.isQuiet(['a'])).toBe(true);
    expect(quiet.loneHead(['a'], [])).toBeUndefined();
  });

  it('names a lone newcomer outside the proven sessions as the head there', () => {
    const quiet = new QuietQueue();
    quiet.nothingOutside(quiet.beforeLook(), []);
    quiet.queued(ref('x', 'b'));
    expect(quiet.isQuiet([])).toBe(false);
    expect(quiet.loneHead([], [])).toEqual(ref('x', 'b'));
    // Excluding its session (busy) or its id (being cancelled) leaves nothing to claim there.
    expect(quiet.isQuiet(['b'])).toBe(true);
    expect(quiet.loneHead(['b'], [])).toBeUndefined();
    expect(quiet.loneHead([], ['x'])).toBeUndefined();
  });

  it('names the one session that may hold queued scenarios outside the excluded ones', () => {
    const quiet = new QuietQueue();
    expect(quiet.onlySession([])).toBeUndefined();
    quiet.nothingOutside(quiet.beforeLook(), ['a']);
    expect(quiet.onlySession([])).toBe('a');
    expect(quiet.onlySession(['a'])).toBeUndefined();
    quiet.nothingOutside(quiet.beforeLook(), ['a', 'b']);
    expect(quiet.onlySession([])).toBeUndefined();
    expect(quiet.onlySession(['b'])).toBe('a');
    // A newcomer of another session is a second candidate.
    quiet.queued(ref('x', 'c'));
    expect(quiet.onlySession(['b'])).toBeUndefined();
  });

  it('knows nothing once two newcomers arrived outside the proven sessions', () => {
    const quiet = new QuietQueue();
    quiet.nothingOutside(quiet.beforeLook(), []);
    quiet.queued(ref('x', 'b'));
    quiet.queued(ref('y', 'c'));
    expect(quiet.loneHead([], [])).toBeUndefined();
    expect(quiet.isQuiet(['b', 'c'])).toBe(false);
  });

  it('proves nothing from a look that raced with a queued scenario', () => {
    const quiet = new QuietQueue();
    const look = quiet.beforeLook();
    quiet.queued(ref('x', 'b'));
    quiet.nothingOutside(look, []);
    expect(quiet.isQuiet([])).toBe(false);
  });

  it('forgets everything on request', () => {
    const quiet = new QuietQueue();
    quiet.nothingOutside(quiet.beforeLook(), []);
    quiet.queued(ref('x', 'b'));
    quiet.forget();
    expect(quiet.isQuiet(['a', 'b'])).toBe(false);
    expect(quiet.loneHead([], [])).toBeUndefined();
  });
});
