import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventFacts } from '../../src/model/event-types.js';
import { ProgressThrottle } from '../../src/events/progress-throttle.js';

const progress = (value: number): EventFacts => ({ type: 'scenario.progress', session_id: 's', scenario_id: 'a', progress: value });

describe('progress throttle', () => {
  let released: EventFacts[];
  let throttle: ProgressThrottle;
  beforeEach(() => {
    vi.useFakeTimers();
    released = [];
    throttle = new ProgressThrottle(100, (facts) => released.push(facts));
  });
  afterEach(() => vi.useRealTimers());

  it('lets one report per interval through, the latest of the interval', () => {
    for (let i = 1; i <= 50; i++) {
      throttle.report('a', progress(i / 100));
      vi.advanceTimersByTime(10); // 100 reports a second
    }
    vi.advanceTimersByTime(200);
    // 500 ms of reports: the first at once, then one per 100 ms, each the newest value.
    expect(released.map((f) => f.progress)).toEqual([0.01, 0.1, 0.2, 0.3, 0.4, 0.5]);
  });

  it('releases the waiting report at once before the scenario ends, and forgets the scenario', () => {
    throttle.report('a', progress(0.1));
    throttle.report('a', progress(0.9));
    expect(released.map((f) => f.progress)).toEqual([0.1]);
    throttle.settle('a', true);
    expect(released.map((f) => f.progress)).toEqual([0.1, 0.9]);
    vi.advanceTimersByTime(1_000);
    expect(released).toHaveLength(2);
    // A new run starts afresh: its first report goes out at once.
    throttle.report('a', progress(0.2));
    expect(released.map((f) => f.progress)).toEqual([0.1, 0.9, 0.2]);
  });

  it('throttles scenarios independently', () => {
    throttle.report('a', progress(0.1));
    throttle.report('b', { ...progress(0.3), scenario_id: 'b' });
    expect(released).toHaveLength(2);
  });
});
