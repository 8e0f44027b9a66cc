import { defineKpi } from '../../../src/domain/define.js';
import { fail } from '../algorithms/diagnostics/fail.js';

/**
 * Diagnostic: the KPI of the `Fail` algorithm (and of no other), which throws or yields NaN as the
 * result asks, so the service's handling of a failing KPI can be exercised end to end.
 */
export const failingKpi = defineKpi({
  name: 'Failing KPI',
  unit: '',
  betterWhen: 'LOWER',
  description: 'Diagnostic: throws (mode kpi_error) or yields NaN (mode nan_kpi), for the Fail algorithm only.',
  appliesTo: [fail],
  compute: (result) => {
    if (result?.kpi === 'throws') throw new Error('KPI failed on purpose (Fail diagnostic, mode kpi_error)');
    return NaN;
  },
});
