import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { WarehouseData } from '../../model.js';
import { emptyResult, type SlottingResult } from '../../result.js';

/**
 * Diagnostic: fails in the chosen way, so every failure path of the service can be exercised:
 * - `raise`: throws an Error;
 * - `throw_string`: throws a plain string (authors do this; the service must still report a message);
 * - `no_result`: returns undefined instead of a result;
 * - `kpi_error`: returns a result whose `diagnostic` marker makes every KPI's compute throw;
 * - `nan_kpi`: returns a result whose `diagnostic` marker makes every KPI return NaN.
 */
export const fail = defineAlgorithm({
  name: 'Fail',
  description: 'Diagnostic: fails on purpose, in the way `mode` names.',
  tags: ['diagnostic'],
  parameters: {
    mode: {
      kind: 'enum',
      choices: ['raise', 'throw_string', 'no_result', 'kpi_error', 'nan_kpi'],
      default: 'raise',
      description: 'How to fail.',
    },
  },
  run(_data: WarehouseData, params): SlottingResult | undefined {
    switch (params.mode) {
      case 'raise':
        throw new Error('Fail diagnostic: raised on purpose (mode raise)');
      case 'throw_string':
        // A non-Error throw on purpose: the service must normalise it.
        throw 'Fail diagnostic: threw a string on purpose (mode throw_string)';
      case 'no_result':
        return undefined;
      case 'kpi_error':
      case 'nan_kpi':
        return { ...emptyResult(), diagnostic: params.mode };
    }
  },
});
