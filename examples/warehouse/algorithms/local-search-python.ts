import { defineExternalAlgorithm } from '../../../src/domain/define.js';
import { slotting } from '../result.js';
import { depotParameters, zoneParameters } from './shared-parameters.js';

/**
 * The example's algorithm in Python (`local_search.py`, standard library only): it reads the dataset
 * from stdin and writes a slotting result, so the slotting KPIs and views apply to it as to the
 * TypeScript ones. The command's `./` path is relative to the domain module (`examples/warehouse`).
 */
export const localSearchPython = defineExternalAlgorithm({
  name: 'Local Search (Python)',
  description:
    "A Python program: starts from today's slots (or, with a published plan on the same dataset, from that plan), then keeps every seeded random move or swap that shortens the daily walk by more than churn_weight per SKU moved from the plan.",
  parameters: {
    ...depotParameters,
    ...zoneParameters,
    iterations: { kind: 'integer', min: 0, max: 10_000_000, default: 20_000, description: 'Moves and swaps tried.' },
    churn_weight: {
      kind: 'float',
      min: 0,
      default: 0,
      description: 'On a warm start, metres of daily walk a move away from the published plan must save to be kept; 0 only starts from the plan. Without a plan it does nothing.',
    },
  },
  result: slotting,
  // Reads `previous_plan` from its input (docs/external-algorithms.md).
  warmStart: true,
  external: { command: ['python3', './algorithms/local_search.py'] },
});
