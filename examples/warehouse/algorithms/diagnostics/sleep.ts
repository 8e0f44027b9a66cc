import { setTimeout as delay } from 'node:timers/promises';
import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { WarehouseData } from '../../model.js';
import { asIsPlan } from '../../plan/as-is-plan.js';
import { planToResult } from '../../plan/plan.js';
import { slottingProblem } from '../../plan/slotting-problem.js';
import { ORIGIN, slotting } from '../../result.js';
import { durationParameter, REPORT_INTERVAL_MS } from './duration-parameter.js';

/**
 * Diagnostic: a long run that leaves its thread idle (like an algorithm waiting on I/O). Sleeps in short
 * slices, reporting progress after each; an abort rejects the pending slice at once.
 */
export const sleep = defineAlgorithm({
  name: 'Sleep',
  description: 'Diagnostic: waits duration_ms without using CPU, then returns the as-is slotting.',
  tags: ['diagnostic'],
  parameters: durationParameter,
  result: slotting,
  async run(data: WarehouseData, params, ctx) {
    const started = Date.now();
    ctx.signal.throwIfAborted();
    // The time read once per slice, for the report and the loop's end alike: read twice, the last
    // report could say 0.99 while the loop saw the duration reached and ended.
    for (let elapsed = 0; elapsed < params.duration_ms; ) {
      const slice = Math.min(REPORT_INTERVAL_MS, params.duration_ms - elapsed);
      await delay(slice, undefined, { signal: ctx.signal });
      elapsed = Date.now() - started;
      ctx.progress(Math.min(1, elapsed / params.duration_ms));
    }
    return planToResult(slottingProblem(data, ORIGIN, false), asIsPlan(data));
  },
});
