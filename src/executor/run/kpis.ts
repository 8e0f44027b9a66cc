import type { AnyKpi } from '../../domain/define.js';
import { coerceError } from '../../errors.js';

/** A KPI that threw or gave something other than a finite number; the run is FAILED with this message. */
export class KpiError extends Error {
  override readonly name = 'KpiError';
}

/**
 * The given KPIs (those that apply to the run's algorithm) for a finished run. Non-finite numbers never reach the wire
 * (docs/api/contract.md, "Conventions"), so NaN, Infinity or a non-number fails the run.
 */
export function computeKpis(kpis: readonly AnyKpi[], result: unknown, data: unknown): Record<string, number> {
  const values: Record<string, number> = {};
  for (const kpi of kpis) {
    let value: unknown;
    try {
      value = kpi.compute(result, data);
    } catch (thrown) {
      const err = coerceError(thrown);
      throw new KpiError(`KPI '${kpi.name}' failed: ${err.message}`, { cause: err });
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new KpiError(`KPI '${kpi.name}' yielded ${typeof value === 'number' ? String(value) : typeof value}, not a finite number`);
    }
    values[kpi.name] = value;
  }
  return values;
}
