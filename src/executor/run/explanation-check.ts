import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Dataset } from '../../domain/dataset-model.js';
import type { Schemas } from '../../domain/dataset-schema.js';
import type { AnyKpi } from '../../domain/define.js';
import { DEFAULT_TERMS_TOLERANCE, SEVERITIES } from '../../domain/explanation.js';
import { coerceError } from '../../errors.js';
import { storedExplanation, type ExplainedKpi, type StoredExplanation } from '../../model/explanation/stored-explanation.js';
import { KpiError } from './kpis.js';
import { rowKeys } from './explanation-rows.js';

/** Bounds that keep one explanation storable and servable: past them the run fails, naming the path. */
export const EXPLANATION_LIMITS = { violations: 100_000, rowsPerViolation: 1_000, termsPerKpi: 10_000, text: 2_000, name: 200 } as const;

const Name = Type.String({ minLength: 1, maxLength: EXPLANATION_LIMITS.name });
const RowRefSchema = Type.Object({ table: Name, key: Type.Union([Type.String({ maxLength: EXPLANATION_LIMITS.name }), Type.Number()]) }, { additionalProperties: false });
const ViolationSchema = Type.Object(
  {
    constraint: Name,
    severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
    amount: Type.Number(),
    rows: Type.Array(RowRefSchema, { maxItems: EXPLANATION_LIMITS.rowsPerViolation }),
    message: Type.String({ maxLength: EXPLANATION_LIMITS.text }),
  },
  { additionalProperties: false },
);
const ExplanationSchema = Type.Object(
  {
    terms: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String({ minLength: 1, maxLength: EXPLANATION_LIMITS.name }), Type.Number(), { maxProperties: EXPLANATION_LIMITS.termsPerKpi }))),
    violations: Type.Optional(Type.Array(ViolationSchema, { maxItems: EXPLANATION_LIMITS.violations })),
    infeasible: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type CheckedExplanation = Static<typeof ExplanationSchema>;
const check = TypeCompiler.Compile(ExplanationSchema);

/** A wrong explanation: the run fails (ALGORITHM_ERROR) with this message, which names the path. */
export class ExplanationError extends Error {
  override readonly name = 'ExplanationError';
}

/** What the check needs of the run besides the explanation. */
export interface ExplanationRun {
  readonly algorithm: string;
  /** How the message names where the explanation came from: `ctx.explain` or `$explanation`. */
  readonly source: string;
  /** The KPIs that apply to the algorithm, and their values. */
  readonly kpis: readonly AnyKpi[];
  readonly values: Readonly<Record<string, number>>;
  readonly result: unknown;
  readonly data: unknown;
  /** The run's dataset, whose rows the violations must name, read through `schemas`. */
  readonly dataset: () => Promise<Dataset> | Dataset;
  readonly schemas: Schemas;
}

/**
 * The explanation to store for a run: the algorithm's (`given`, unchecked) checked for shape, KPI names
 * and rows, plus the terms that KPIs compute themselves where it gives none. Undefined when there is
 * nothing to explain (no terms, no violation, not infeasible): such a run stores nothing more than before.
 */
export async function checkedExplanation(given: unknown, run: ExplanationRun): Promise<StoredExplanation | undefined> {
  const explanation = given === undefined ? {} : shapeOf(given, run);
  const kpis = explainedKpis(explanation, run);
  const violations = explanation.violations ?? [];
  if (violations.length > 0) await checkRows(violations, run);
  const infeasible = explanation.infeasible === true || violations.some((v) => v.severity === 'hard');
  if (kpis.length === 0 && violations.length === 0 && !infeasible) return undefined;
  return storedExplanation(kpis, violations, infeasible);
}

function fail(run: ExplanationRun, path: string, message: string): never {
  throw new ExplanationError(`algorithm '${run.algorithm}': its explanation (${run.source}) at ${path === '' ? 'its root' : path}: ${message}`);
}

function shapeOf(given: unknown, run: ExplanationRun): CheckedExplanation {
  if (check.Check(given)) return given;
  const first = check.Errors(given).First();
  return fail(run, first?.path ?? '', (first?.message ?? 'not an explanation').toLowerCase());
}

/** Per KPI with terms (given by the algorithm, else computed by the KPI), in the domain's KPI order. */
function explainedKpis(explanation: CheckedExplanation, run: ExplanationRun): ExplainedKpi[] {
  const given = explanation.terms ?? {};
  for (const name of Object.keys(given)) {
    const kpi = run.kpis.find((k) => k.name === name);
    const path = `/terms/${pointerPart(name)}`;
    if (!kpi) fail(run, path, `no KPI named '${name}' applies to this algorithm`);
    if (!kpi.terms) fail(run, path, `KPI '${name}' declares no terms`);
  }
  const explained: ExplainedKpi[] = [];
  for (const kpi of run.kpis) {
    if (!kpi.terms) continue;
    const value = run.values[kpi.name];
    if (value === undefined) continue;
    const terms = given[kpi.name] ?? computedTerms(kpi, run);
    if (terms === undefined) continue;
    explained.push({ kpi: kpi.name, by: kpi.terms.by, value, terms, tolerance: kpi.terms.tolerance ?? DEFAULT_TERMS_TOLERANCE });
  }
  return explained;
}

/** The terms a KPI computes itself; a throw or a non-finite value fails the run as the KPI's own failure would. */
function computedTerms(kpi: AnyKpi, run: ExplanationRun): Readonly<Record<string, number>> | undefined {
  const compute = kpi.terms?.compute;
  if (!compute) return undefined;
  let terms: unknown;
  try {
    terms = compute(run.result, run.data);
  } catch (thrown) {
    const err = coerceError(thrown);
    throw new KpiError(`KPI '${kpi.name}' failed computing its terms: ${err.message}`, { cause: err });
  }
  if (typeof terms !== 'object' || terms === null || Array.isArray(terms)) throw new KpiError(`KPI '${kpi.name}' computed terms that are not an object of numbers`);
  for (const [term, value] of Object.entries(terms)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new KpiError(`KPI '${kpi.name}' computed term '${term}' as ${String(value)}, not a finite number`);
  }
  return terms as Record<string, number>;
}

/** Every row a violation names must exist in the run's dataset. */
async function checkRows(violations: CheckedExplanation['violations'] & object, run: ExplanationRun): Promise<void> {
  const dataset = await run.dataset();
  const keysByTable = new Map<string, ReadonlySet<unknown>>();
  violations.forEach((violation, i) =>
    violation.rows.forEach((row, j) => {
      let keys = keysByTable.get(row.table);
      if (!keys) {
        const table = dataset.tables[row.table];
        if (!table) fail(run, `/violations/${i}/rows/${j}/table`, `the dataset has no table '${row.table}'`);
        keysByTable.set(row.table, (keys = rowKeys(row.table, table, run.schemas)));
      }
      if (!keys.has(row.key)) fail(run, `/violations/${i}/rows/${j}/key`, `table '${row.table}' has no row with key ${JSON.stringify(row.key)}`);
    }),
  );
}

/** A JSON-pointer reference token (RFC 6901): `~` and `/` escaped. */
const pointerPart = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
