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
  description: 'A Python program: starts from today\'s slots, then keeps every seeded random move or swap that shortens the daily walk.',
  parameters: {
    ...depotParameters,
    ...zoneParameters,
    iterations: { kind: 'integer', min: 0, max: 10_000_000, default: 20_000, description: 'Moves and swaps tried.' },
  },
  result: slotting,
  external: { command: ['python3', './algorithms/local_search.py'] },
});
