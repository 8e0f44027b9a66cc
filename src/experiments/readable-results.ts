import type { Cell, ColumnType } from '../domain/dataset-model.js';
import { describeParams } from '../params/describe.js';
import type { ExperimentResultRow } from '../store/experiments-repository.js';
import type { Axis } from './grid.js';
import { cellOf, type Columns, type ResultsSource } from './results-export.js';

/**
 * The results export for people (`style=readable`): columns labelled as the domain declares them
 * (`Depot x`, `Travel Distance (m)`) instead of the API's paths (`algo_params.depot_x`), each
 * scenario's repeat (1.. within its combination) and run seed, and KPIs rounded to what a planner reads.
 * The values stay numbers (a spreadsheet sums them); only their digits change.
 */

const LEADING = ['Scenario', 'Status', 'Repeat', 'Seed'] as const;
const LEADING_TYPES: readonly ColumnType[] = ['string', 'string', 'integer', 'integer'];

/** An axis's column heading: the parameter's declared label (else its name humanised), `Dataset` for the dataset axis. */
function axisLabel(axis: Axis, source: ResultsSource): string {
  if (axis.target.kind === 'dataset_key') return 'Dataset';
  const algorithm = source.domain.algorithm(source.record.algoName);
  const decls = axis.target.kind === 'data_params' ? source.domain.dataParameters : algorithm ? source.domain.parametersOf(algorithm) : {};
  const name = axis.target.name;
  return describeParams(decls).find((d) => d.name === name)?.label ?? name;
}

export function readableColumns(source: ResultsSource): Columns {
  const kpis = source.domain.kpisFor(source.record.algoName);
  const axisLabels = source.axes.map((axis) => axisLabel(axis, source));
  const kpiLabels = kpis.map((k) => (k.unit ? `${k.name} (${k.unit})` : k.name));
  return {
    names: unique([...LEADING, ...axisLabels, ...kpiLabels]),
    kpis: kpis.map((k) => k.name),
    types: [...LEADING_TYPES, ...source.axes.map((): ColumnType => 'string'), ...kpis.map((): ColumnType => 'float')],
  };
}

/** Headings as given, a repeated one (an axis labelled like a KPI) marked with its place so each column keeps its own. */
function unique(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    const heading = seen.has(name) ? `${name} (${i + 1})` : name;
    seen.add(heading);
    return heading;
  });
}

/**
 * A KPI as a person reads it: whole numbers as they are, others to 2 decimals from 1 up and to 3
 * significant digits below (0.004567 → 0.00457), never a binary tail (12.300000000000001 → 12.3).
 */
export function readableNumber(value: number): number {
  if (Number.isInteger(value) || !Number.isFinite(value)) return value;
  if (Math.abs(value) >= 1) return Math.round(value * 100) / 100;
  return Number(value.toPrecision(3));
}

/** An axis value: a number as given but without float noise (a range's 0.30000000000000004 is 0.3). */
const axisCell = (value: unknown): Cell => (typeof value === 'number' ? Number(value.toPrecision(12)) : cellOf(value));

/** The rows in the columns of `readableColumns`, counting each combination's repeats as they come (creation order). */
export async function* readableRows(source: ResultsSource, rows: AsyncIterable<ExperimentResultRow>): AsyncGenerator<Cell[]> {
  const kpis = source.domain.kpisFor(source.record.algoName).map((k) => k.name);
  const repeats = new Map<number, number>();
  for await (const row of rows) {
    const repeat = (repeats.get(row.combo) ?? 0) + 1;
    repeats.set(row.combo, repeat);
    const axes = JSON.parse(row.axisValuesJson) as Record<string, unknown>;
    const values = row.status === 'COMPLETE' && row.kpiValuesJson !== null ? (JSON.parse(row.kpiValuesJson) as Record<string, unknown>) : {};
    yield [
      row.tag,
      row.status,
      repeat,
      row.seed,
      ...source.axes.map((a) => axisCell(axes[a.path])),
      ...kpis.map((k) => {
        const v = values[k];
        return typeof v === 'number' ? readableNumber(v) : null;
      }),
    ];
  }
}
