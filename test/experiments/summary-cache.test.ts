import { describe, expect, it } from 'vitest';
import type { ExperimentSummary } from '../../src/experiments/summary.js';
import { SummaryCache } from '../../src/experiments/summary-cache.js';

const summary = (n: number): ExperimentSummary => ({ axes: [], best: { k: { id: `s${n}`, tag: `t${n}`, value: n } }, fronts: [] });

describe('the summary cache', () => {
  it('computes once while the stamp holds, and again when it changes', async () => {
    const cache = new SummaryCache();
    let computed = 0;
    const compute = async () => summary(++computed);
    expect(await cache.get('e', 'a', compute)).toEqual(summary(1));
    expect(await cache.get('e', 'a', compute)).toEqual(summary(1));
    expect(await cache.get('e', 'b', compute)).toEqual(summary(2));
    expect(await cache.get('other', 'b', compute)).toEqual(summary(3));
    cache.drop('e');
    expect(await cache.get('e', 'b', compute)).toEqual(summary(4));
  });

  it('does not keep a failed computation', async () => {
    const cache = new SummaryCache();
    await expect(cache.get('e', 'a', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('e', 'a', async () => summary(1))).toEqual(summary(1));
  });
});
