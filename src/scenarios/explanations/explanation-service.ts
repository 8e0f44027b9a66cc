import { errors } from '../../error-factories.js';
import { decodeCursor, encodeCursor } from '../../model/list-cursor.js';
import type { KpiExplanation, ViolationWire } from '../../model/explanation/stored-explanation.js';
import type { ExplanationRow, ExplanationsRepository } from '../../store/explanations-repository.js';
import type { ScenarioRecord } from '../../store/scenarios-repository.js';
import { waterfalls, type Waterfall } from './waterfall.js';

/** The violations' order is fixed when they are stored; the cursor names it. */
const VIOLATION_ORDER = 'violations';

export interface ViolationPageQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

/** `GET .../scenarios/{id}/explanation`: the KPIs' terms, one page of violations, the infeasible flag. */
export interface ExplanationView {
  readonly kpis: KpiExplanation[];
  readonly violations: ViolationWire[];
  /** How many violations the run has in all. */
  readonly violation_count: number;
  readonly infeasible: boolean;
  readonly next_cursor: string | null;
}

/** Reads explanations for the explanation route, compare and reports. */
export class ExplanationService {
  constructor(private readonly explanations: ExplanationsRepository) {}

  /**
   * The explanation of a COMPLETE scenario (`record`, already found in its session): an empty one when
   * its run gave none. 409 RESULT_NOT_READY before COMPLETE.
   */
  async view(record: ScenarioRecord, query: ViolationPageQuery): Promise<ExplanationView> {
    if (record.status !== 'COMPLETE') throw errors.resultNotReady(record.id, record.status);
    const from = query.cursor === undefined ? 0 : decodeCursor(query.cursor, VIOLATION_ORDER).seq;
    const row = await this.explanations.read(record.sessionId, record.id);
    if (!row) return { kpis: [], violations: [], violation_count: 0, infeasible: false, next_cursor: null };
    const violations = (await this.explanations.violations(row.scenarioSeq, from, query.limit)) as ViolationWire[];
    const next = from + violations.length;
    return {
      kpis: kpisOf(row),
      violations,
      violation_count: row.violationCount,
      infeasible: row.infeasible,
      next_cursor: next < row.violationCount && violations.length > 0 ? encodeCursor({ sort: VIOLATION_ORDER, value: null, seq: next }) : null,
    };
  }

  /** Compare's `explanations`: the waterfall of each explained KPI from the baseline to each other scenario. */
  async waterfalls(sessionId: string, records: readonly ScenarioRecord[], baselineId: string): Promise<Waterfall[]> {
    const rows = await this.explanations.readMany(sessionId, records.filter((r) => r.status === 'COMPLETE').map((r) => r.id));
    const explained = new Map([...rows].map(([id, row]) => [id, kpisOf(row)]));
    return waterfalls(baselineId, explained, records.map((r) => r.id));
  }

  /** What a report freezes per scenario: its explanation with the first `violations` violations. */
  async frozen(sessionId: string, records: readonly ScenarioRecord[], violations: number): Promise<FrozenExplanation[]> {
    const rows = await this.explanations.readMany(sessionId, records.filter((r) => r.status === 'COMPLETE').map((r) => r.id));
    const out: FrozenExplanation[] = [];
    for (const record of records) {
      const row = rows.get(record.id);
      if (!row) continue;
      const first = (await this.explanations.violations(row.scenarioSeq, 0, violations)) as ViolationWire[];
      out.push({ scenario_id: record.id, kpis: kpisOf(row), violations: first, violation_count: row.violationCount, infeasible: row.infeasible });
    }
    return out;
  }
}

/** A scenario's explanation as a report keeps it: the first violations, and how many there were. */
export interface FrozenExplanation {
  readonly scenario_id: string;
  readonly kpis: KpiExplanation[];
  readonly violations: ViolationWire[];
  readonly violation_count: number;
  readonly infeasible: boolean;
}

const kpisOf = (row: ExplanationRow): KpiExplanation[] => JSON.parse(row.kpisJson) as KpiExplanation[];
