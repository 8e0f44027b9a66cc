import { performance } from 'node:perf_hooks';
import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { WarehouseData } from '../../model.js';
import { asIsPlan } from '../../plan/as-is-plan.js';
import { planToResult } from '../../plan/plan.js';
import { slottingProblem } from '../../plan/slotting-problem.js';
import { ORIGIN, slotting } from '../../result.js';
import { durationParameter, REPORT_INTERVAL_MS } from './duration-parameter.js';

/**
 * Diagnostic: a CPU-bound run that never yields its thread, to show that such an algorithm does not block
 * the HTTP server. It still reports progress and reads `signal.aborted` between bursts of work.
 */
export const busy = defineAlgorithm({
  name: 'Busy',
  description: 'Diagnostic: burns CPU for duration_ms without yielding, then returns the as-is slotting.',
  tags: ['diagnostic'],
  parameters: durationParameter,
  result: slotting,
  run(data: WarehouseData, params, ctx) {
    const started = performance.now();
    let sink = 0;
    for (let elapsed = 0; elapsed < params.duration_ms; elapsed = performance.now() - started) {
      const burstEnd = started + Math.min(params.duration_ms, elapsed + REPORT_INTERVAL_MS);
      while (performance.now() < burstEnd) sink = burn(sink);
      ctx.progress(Math.min(1, (performance.now() - started) / params.duration_ms));
      ctx.signal.throwIfAborted();
    }
    ctx.log.info('busy done', { sink });
    return planToResult(slottingProblem(data, ORIGIN, false), asIsPlan(data));
  },
});

/** Some arithmetic the JIT cannot drop (its result is logged). */
function burn(seed: number): number {
  let x = seed;
  for (let i = 0; i < 10_000; i++) x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
  return x;
}
