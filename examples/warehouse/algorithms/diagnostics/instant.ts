import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { WarehouseData } from '../../model.js';
import { emptyResult, slotting, type SlottingResult } from '../../result.js';

/**
 * Diagnostic: returns at once, whatever the data. The result is the smallest valid one (nothing slotted),
 * so benchmarks of many runs measure the service, not the domain; every KPI of it is 0.
 */
export const instant = defineAlgorithm({
  name: 'Instant',
  description: 'Diagnostic: returns an empty slotting immediately.',
  tags: ['diagnostic'],
  parameters: {},
  result: slotting,
  run(_data: WarehouseData): SlottingResult {
    return emptyResult();
  },
});
