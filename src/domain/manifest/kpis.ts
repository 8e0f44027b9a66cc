import type { TSchema } from '@sinclair/typebox';
import { BETTER_WHEN, type AnyExternalAlgorithm, type AnyKpi, type ResultType } from '../define.js';
import { optional } from './dataset-schemas.js';
import { pointerText, readPointer, valueAt, type Pointer } from './pointer.js';
import { readArray, readChoice, readFields, readOptionalNumber, readOptionalString, readString } from './read.js';
import { schemaAt } from './result-schema.js';
import { readScope } from './scope.js';
import type { Where } from './where.js';

const KPI_FIELDS = ['name', 'unit', 'betterWhen', 'threshold', 'description', 'appliesTo', 'resultType', 'from', 'terms'];
const TERMS_FIELDS = ['by', 'tolerance'];

/**
 * The manifest's `kpis`: numbers the program returns in its result. A KPI's value is read at `from` (a
 * JSON Pointer), by default `/kpis/<its name>`: the program writes `"kpis": {"Cost": 12.5}` beside the
 * rest of its result. Each algorithm's result schema must declare that number, so a result without it
 * fails the run's result check (naming the path) rather than the KPI. `terms: { by, tolerance? }` says
 * the program gives the KPI's terms in its `$explanation` (docs/api/explanations.md).
 */
export function readKpis(value: unknown, at: Where, algorithms: readonly AnyExternalAlgorithm[], resultTypes: ReadonlyMap<string, ResultType<unknown>>): AnyKpi[] {
  const names = new Set<string>();
  return readArray(value, at).map((item, i) => {
    const itemAt: Where = at.index(i);
    const fields = readFields(item, itemAt, KPI_FIELDS, ['name', 'betterWhen']);
    const name = readString(fields.name, itemAt.key('name'));
    if (names.has(name)) itemAt.key('name').fail(`two KPIs are named "${name}"`);
    names.add(name);
    const scope = readScope(fields, itemAt, algorithms, resultTypes);
    const from = fields.from === undefined ? ['kpis', name] : readPointer(fields.from, itemAt.key('from'));
    for (const algorithm of scope.algorithms) requireNumber(algorithm, from, fields.from === undefined ? itemAt : itemAt.key('from'));
    const threshold = fields.threshold === null ? null : readOptionalNumber(fields.threshold, itemAt.key('threshold'));
    // What defineKpi makes (it only freezes): its overloads are for code, where the types are known.
    return Object.freeze({
      name,
      unit: readOptionalString(fields.unit, itemAt.key('unit')) ?? '',
      betterWhen: readChoice(fields.betterWhen, itemAt.key('betterWhen'), BETTER_WHEN),
      ...optional('threshold', threshold),
      ...optional('description', readOptionalString(fields.description, itemAt.key('description'))),
      ...optional('appliesTo', scope.appliesTo),
      ...optional('terms', fields.terms === undefined ? undefined : readTerms(fields.terms, itemAt.key('terms'))),
      compute: (result: unknown) => numberAt(result, from),
    } as AnyKpi);
  });
}

/** A KPI's `terms`: what a term is, and the tolerance of their sum; the program gives their values. */
function readTerms(value: unknown, at: Where): { by: string; tolerance?: number } {
  const fields = readFields(value, at, TERMS_FIELDS, ['by']);
  const tolerance = readOptionalNumber(fields.tolerance, at.key('tolerance'));
  if (tolerance !== undefined && !(tolerance >= 0)) at.key('tolerance').fail('must be a number of at least 0');
  return { by: readString(fields.by, at.key('by')), ...optional('tolerance', tolerance) };
}

/** Fails unless the result type of `algorithm` declares a number at `pointer`. */
function requireNumber(algorithm: AnyExternalAlgorithm, pointer: Pointer, at: Where): void {
  const declared = schemaAt(algorithm.result.schema as TSchema, pointer);
  const type = declared?.type as unknown;
  if (type === 'number' || type === 'integer') return;
  const resultName = algorithm.result.name;
  at.fail(`algorithm "${algorithm.name}" returns result type "${resultName}", which declares no number at ${pointerText(pointer)}; declare it in resultTypes["${resultName}"] (e.g. {"type": "number"}) or point "from" at one it declares`);
}

/** The KPI's value; a throw makes the run FAILED with KPI_ERROR and the result kept, as for a TypeScript KPI. */
function numberAt(result: unknown, pointer: Pointer): number {
  const value = valueAt(result, pointer);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`the result has no number at ${pointerText(pointer)}`);
  return value;
}
