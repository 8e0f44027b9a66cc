import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { Severity } from './severity.js';

/** A KPI with the terms that explain it, before it is put in its stored (wire) form. */
export interface ExplainedKpi {
  readonly kpi: string;
  readonly by: string;
  readonly value: number;
  readonly terms: Readonly<Record<string, number>>;
  readonly tolerance: number;
}

/** One term of a KPI, as the API serves it. */
export interface TermValue {
  readonly term: string;
  readonly value: number;
}

/** A KPI's explanation as stored and served (`GET .../explanation`, `kpis[i]`). */
export interface KpiExplanation {
  readonly kpi: string;
  /** What a term is (`zone`): the KPI's `terms.by`. */
  readonly by: string;
  readonly value: number;
  /** Largest |value| first. */
  readonly terms: TermValue[];
  /** value − the sum of the terms: never hidden, never scaled away. */
  readonly residual: number;
  readonly tolerance: number;
  /** |residual| ≤ tolerance × max(|value|, Σ|term|). */
  readonly adds_up: boolean;
}

export interface RowRefWire {
  readonly table: string;
  readonly key: string | number;
}

export interface ViolationWire {
  readonly constraint: string;
  readonly severity: Severity;
  readonly amount: number;
  readonly rows: RowRefWire[];
  readonly message: string;
}

/** Violations per stored chunk: a page reads one or two chunks, a run of 10,000 writes 20 rows. */
export const VIOLATIONS_PER_CHUNK = 500;

/**
 * What a run hands the store: made in the run's thread, so recording the outcome only writes bytes.
 * Violations are kept in order (hard before soft, larger amount first) in chunks, each a JSON array
 * compressed (Brotli): violations repeat their constraint, tables and wording, so a chunk shrinks some
 * fortyfold, which is what keeps 10,000 of them within a fifth of a run's store time (docs/benchmarks.md).
 */
export interface StoredExplanation {
  readonly kpisJson: string;
  readonly infeasible: boolean;
  readonly violationCount: number;
  readonly violationChunks: readonly Uint8Array[];
}

/**
 * Quality 5: half of deflate's bytes at a few milliseconds per 500 violations, spent in the run's
 * thread; higher qualities cost several times that for a few per cent less.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const packChunk = (violations: readonly ViolationWire[]): Uint8Array => brotliCompressSync(JSON.stringify(violations), BROTLI);

/** The violations of one stored chunk. */
export const unpackChunk = (body: Uint8Array): ViolationWire[] => JSON.parse(brotliDecompressSync(body).toString('utf8')) as ViolationWire[];

/** Terms in order of weight, the residual and whether they add up. */
export function kpiExplanation(explained: ExplainedKpi): KpiExplanation {
  const terms = Object.entries(explained.terms)
    .map(([term, value]) => ({ term, value }))
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  let sum = 0;
  let scale = Math.abs(explained.value);
  let absSum = 0;
  for (const t of terms) {
    sum += t.value;
    absSum += Math.abs(t.value);
  }
  scale = Math.max(scale, absSum);
  const residual = explained.value - sum;
  return { kpi: explained.kpi, by: explained.by, value: explained.value, terms, residual, tolerance: explained.tolerance, adds_up: Math.abs(residual) <= explained.tolerance * scale };
}

const severityRank = (s: Severity) => (s === 'hard' ? 0 : 1);

/** The stored form of a checked explanation. */
export function storedExplanation(kpis: readonly ExplainedKpi[], violations: ViolationWire[], infeasible: boolean): StoredExplanation {
  const ordered = violations
    .map((v, i) => ({ v, i }))
    .sort((a, b) => severityRank(a.v.severity) - severityRank(b.v.severity) || b.v.amount - a.v.amount || a.i - b.i)
    .map(({ v }) => ({ constraint: v.constraint, severity: v.severity, amount: v.amount, rows: v.rows.map((r) => ({ table: r.table, key: r.key })), message: v.message }));
  const violationChunks: Uint8Array[] = [];
  for (let i = 0; i < ordered.length; i += VIOLATIONS_PER_CHUNK) violationChunks.push(packChunk(ordered.slice(i, i + VIOLATIONS_PER_CHUNK)));
  return { kpisJson: JSON.stringify(kpis.map(kpiExplanation)), infeasible, violationCount: ordered.length, violationChunks };
}
