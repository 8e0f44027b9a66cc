import type { SlottingResult } from '../result.js';

/**
 * Every KPI starts here: a result marked by the `Fail` diagnostic makes it throw (`kpi_error`) or yield
 * NaN (`nan_kpi`); otherwise the KPI's own computation runs.
 */
export function unlessDiagnostic(result: SlottingResult, compute: () => number): number {
  if (result.diagnostic === 'kpi_error') throw new Error('KPI failed on purpose (Fail diagnostic, mode kpi_error)');
  if (result.diagnostic === 'nan_kpi') return NaN;
  return compute();
}
