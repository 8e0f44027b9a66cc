import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { WarehouseData } from '../../model.js';

/**
 * What `Fail` returns when it lets the run get as far as its KPI: which way the `Failing KPI` (which
 * applies to this algorithm only) is to misbehave.
 */
export interface FailResult {
  readonly kpi: 'throws' | 'nan';
}

/**
 * Diagnostic: fails in the chosen way, so every failure path of the service can be exercised:
 * - `raise`: throws an Error;
 * - `throw_string`: throws a plain string (authors do this; the service must still report a message);
 * - `no_result`: returns undefined instead of a result;
 * - `kpi_error`: returns a result on which its KPI throws;
 * - `nan_kpi`: returns a result on which its KPI yields NaN.
 * The last two end FAILED with code KPI_ERROR and the result kept.
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
  run(_data: WarehouseData, params): FailResult | undefined {
    switch (params.mode) {
      case 'raise':
        throw new Error('Fail diagnostic: raised on purpose (mode raise)');
      case 'throw_string':
        // A non-Error throw on purpose: the service must normalise it.
        throw 'Fail diagnostic: threw a string on purpose (mode throw_string)';
      case 'no_result':
        return undefined;
      case 'kpi_error':
        return { kpi: 'throws' };
      case 'nan_kpi':
        return { kpi: 'nan' };
    }
  },
});
