import type { Scenario } from '../api/types.ts';

/** Why the Upload button is disabled, in words beside it; null when it can be pressed. */
export function uploadBlocker(name: string, files: readonly File[]): string | null {
  const missing = [name.trim() === '' ? 'type a dataset name' : null, files.length === 0 ? 'choose or drop the files' : null].filter((m) => m !== null);
  return missing.length === 0 ? null : `To upload, ${missing.join(' and ')}.`;
}

/** How many of the session's scenarios run on the dataset `key` (null while the list is unknown). */
export function scenariosUsing(key: string, scenarios: readonly Pick<Scenario, 'input_data_id'>[] | undefined): number | null {
  return scenarios === undefined ? null : scenarios.filter((s) => s.input_data_id === key).length;
}
