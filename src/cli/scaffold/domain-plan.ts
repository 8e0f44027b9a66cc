import type { Cell, ColumnType, Table, Tables } from '../../domain/dataset-model.js';
import type { InferredGroup, InferredTable } from './infer-schema.js';

/** A named, typed column of the plan. */
export interface PlanColumn {
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * What the generated algorithm works on: one table, the column it ranks rows by (a number, when the
 * data has one) and the column that names a row (its primary key or first text column, when there is one).
 */
export interface DomainPlan {
  /** The schema group (upload file) that holds the table. */
  readonly group: string;
  readonly table: string;
  readonly measure: PlanColumn | undefined;
  readonly label: PlanColumn | undefined;
  /** The first rows of that table (label and measure only), for the generated unit test. */
  readonly fixture: readonly (readonly Cell[])[];
  /** What the generated algorithm returns for the fixture with `count` = FIXTURE_COUNT. */
  readonly expected: { readonly picked: number; readonly firstLabel: string | undefined; readonly total: number };
}

export const FIXTURE_ROWS = 5;
export const FIXTURE_COUNT = 2;

const NUMERIC: readonly ColumnType[] = ['integer', 'float'];

/** Picks the table with a numeric column (else the first), and computes the test's expectations. */
export function planDomain(groups: readonly InferredGroup[], tables: Tables): DomainPlan {
  const all = groups.flatMap((group) => group.tables);
  const isMeasure = (column: InferredTable['columns'][number]) => NUMERIC.includes(column.type) && !column.primaryKey;
  const chosen = all.find((table) => table.columns.some(isMeasure)) ?? all[0]!;
  const measure = chosen.columns.find(isMeasure);
  const label = chosen.columns.find((column) => column.primaryKey) ?? chosen.columns.find((column) => column.type === 'string' && column !== measure);
  const picked = [label, measure].filter((column): column is NonNullable<typeof column> => column !== undefined);
  const fixture = fixtureRows(tables[chosen.name], picked.map((column) => column.name));
  const group = groups.find((candidate) => candidate.tables.includes(chosen))!;
  const plan = {
    group: group.name,
    table: chosen.name,
    measure: measure && { name: measure.name, type: measure.type },
    label: label && { name: label.name, type: label.type },
    fixture,
  };
  return { ...plan, expected: expectedResult(plan) };
}

function fixtureRows(table: Table | undefined, columns: readonly string[]): Cell[][] {
  if (!table) return [];
  const indexes = columns.map((name) => table.columns.findIndex((column) => column.name === name));
  return table.rows.slice(0, FIXTURE_ROWS).map((row) => indexes.map((index) => row[index] ?? null));
}

/**
 * The generated `topRows` computed here the same way (rank by measure, highest first, stable; rows
 * without a measure skipped; the sum in picked order), so the generated test asserts exact values.
 */
function expectedResult(plan: Omit<DomainPlan, 'expected'>): DomainPlan['expected'] {
  const labelAt = plan.label ? 0 : -1;
  const measureAt = plan.measure ? (plan.label ? 1 : 0) : -1;
  const rows = plan.fixture
    .map((row, i) => ({ label: labelAt < 0 || row[labelAt] === null ? `row ${i + 1}` : String(row[labelAt]), value: measureAt < 0 ? 1 : row[measureAt] }))
    .filter((row): row is { label: string; value: number } => typeof row.value === 'number');
  const picked = rows.sort((a, b) => b.value - a.value).slice(0, FIXTURE_COUNT);
  return { picked: picked.length, firstLabel: picked[0]?.label, total: picked.reduce((sum, row) => sum + row.value, 0) };
}
