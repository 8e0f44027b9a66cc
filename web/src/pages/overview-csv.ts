import type { CsvValue } from 'scenarist/client';
import type { Scenario } from '../api/types.ts';
import { cellText } from '../csv.ts';

/**
 * The overview as a CSV file: the rows as the table shows them (its order and filter), each KPI with its
 * unit in the header and without float noise, then every parameter that made the row: the
 * algorithm's (`algo_params.<name>`) and the dataset's (`data_params.<name>`), named as an experiment's
 * axes are. A parameter a row's algorithm does not have is an empty field.
 */
export interface OverviewCsv {
  readonly header: string[];
  /** Numbers stay numbers: the CSV writer guards text that a spreadsheet would run as a formula, never a number. */
  readonly body: CsvValue[][];
}

/**
 * Significant digits a KPI value keeps in the file: enough for every value a double holds exactly in
 * decimal (so 389047.24200000014, float noise, reads 389047.242), never fewer decimals than the value
 * has (so a ratio of 0.0042 is not cut to 0, as rounding to the table's two decimals would).
 */
const SIGNIFICANT_DIGITS = 15;

/**
 * A KPI value without float noise, kept a number: the writer prints it plainly (no grouping, a dot, a
 * hyphen-minus) for spreadsheets, and a negative one is not taken for a formula. No value: an empty field.
 */
export function csvNumber(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const clean = Number(value.toPrecision(SIGNIFICANT_DIGITS));
  return Object.is(clean, -0) ? 0 : clean;
}

/** A parameter's value as one cell: numbers and booleans as they are, text as it is, anything else as JSON. */
const paramCell = (value: unknown): CsvValue => (typeof value === 'number' || typeof value === 'boolean' ? value : cellText(value));

const unique = (names: Iterable<string>) => [...new Set(names)];

export function overviewCsv(rows: readonly Scenario[], kpiNames: readonly string[], units: Readonly<Record<string, string>>): OverviewCsv {
  const algoParams = unique(rows.flatMap((s) => s.algorithm.parameters.map((p) => p.name)));
  const dataParams = unique(rows.flatMap((s) => Object.keys(s.data_parameters ?? {})));
  const header = [
    'Scenario',
    'Algorithm',
    'Dataset',
    'Finished',
    ...kpiNames.map((k) => (units[k] ? `${k} (${units[k]})` : k)),
    ...algoParams.map((n) => `algo_params.${n}`),
    ...dataParams.map((n) => `data_params.${n}`),
  ];
  const body = rows.map((s) => [
    s.tag,
    s.algorithm.name,
    s.input_data_id,
    s.finished_at ?? '',
    ...kpiNames.map((k) => csvNumber(s.kpis[k]?.value)),
    ...algoParams.map((n) => {
      const p = s.algorithm.parameters.find((q) => q.name === n);
      return p ? paramCell(p.value) : null;
    }),
    ...dataParams.map((n) => paramCell(s.data_parameters?.[n])),
  ]);
  return { header, body };
}

/** `<session name>-scenarios-<YYYY-MM-DD>.csv`: whose table and when, instead of the session's id. */
export function overviewFileName(sessionName: string, day: Date): string {
  const name = sessionName.trim().replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'session';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${name}-scenarios-${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}.csv`;
}
