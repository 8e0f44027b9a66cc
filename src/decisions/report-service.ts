import { randomUUID } from 'node:crypto';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import type { DomainRegistry } from '../domain/registry.js';
import { errors } from '../error-factories.js';
import type { ExportFile } from '../exports/dataset-export.js';
import type { Actor } from '../model/actor.js';
import { decodeCursor, encodeCursor } from '../model/list-cursor.js';
import { compareScenarios } from '../scenarios/compare.js';
import { chooseBaseline } from '../model/compare/default-baseline.js';
import type { ScenarioTree } from '../scenarios/tree/scenario-tree.js';
import type { Page } from '../scenarios/list-page.js';
import type { ReportRow } from '../store/reports-repository.js';
import type { Store } from '../store/store.js';
import type { ViewService } from '../views/view-service.js';
import { labelledParameters } from './parameter-labels.js';
import { compareInputs, type ReportBody, type ReportSummary, type ScenarioViews } from './report-body.js';
import { reportWorkbook } from './report-xlsx.js';
import { ExplanationService } from '../scenarios/explanations/explanation-service.js';

export interface NewReportInput {
  readonly title: string;
  /** The scenarios compared, in the order shown; distinct. */
  readonly ids: readonly string[];
  /** One of `ids`; by default Compare's (`chooseBaseline`). */
  readonly baseline?: string | undefined;
  readonly note?: string | undefined;
}

export interface ReportServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly views: ViewService;
  /** Compare's `inputs` (what each scenario changes against the baseline), frozen with the rest. */
  readonly tree: Pick<ScenarioTree, 'inputs'>;
  /** The workbook of a gate's report (`kind` gate) from its stored body; gates sit beside decisions, so it is handed in. */
  readonly gateWorkbook: (body: string) => ExportFile;
}

/** Violations a report keeps per scenario (with their count): the first, hard and largest, ones. */
const FROZEN_VIOLATIONS = 100;

/** Reports are listed in creation order only; the cursor names that order. */
const REPORT_ORDER = 'created_at';

/**
 * Reports: a comparison frozen as it was rendered (KPIs with deltas, parameters, inputs, every
 * comparison view and each scenario's result views), stored whole as one JSON document, so it
 * outlives its scenarios. Never changed once saved.
 */
export class ReportService {
  constructor(private readonly deps: ReportServiceDeps) {}

  /** Freezes the comparison of `ids` and stores it; answers the report as stored. */
  async create(sessionId: string, input: NewReportInput, by: Actor): Promise<ReportBody> {
    const ids = [...input.ids];
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated !== undefined) throw errors.reportIdListedTwice(repeated);
    if (input.baseline !== undefined && !ids.includes(input.baseline)) throw errors.reportBaselineNotCompared(input.baseline);
    const { store, domain, views, tree } = this.deps;
    const found = new Map((await store.scenarios.getMany(sessionId, ids)).map((r) => [r.id, r]));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.scenarioNotFound(missing);
    const records = ids.map((id) => found.get(id)!);
    // The baseline Compare shows by default, so a report saved without one freezes what Compare showed.
    const plan = await store.plans.current(sessionId);
    const baseline = chooseBaseline(records, { asked: input.baseline, planScenarioId: plan?.scenario_id });
    const inputChanges = await tree.inputs(records, found.get(baseline)!);
    const comparison = compareScenarios(records, baseline, domain);
    // One scenario after another (each draws at most two views at once): a report never floods the view threads.
    const scenarioViews: ScenarioViews[] = [];
    for (const r of records) {
      scenarioViews.push({ scenario_id: r.id, tag: r.tag, views: r.status === 'COMPLETE' ? await views.wholeScenarioViews(sessionId, r.id) : [] });
    }
    const comparisonViews = await views.wholeComparisonViews(sessionId, ids, baseline);
    const explaining = new ExplanationService(store.explanations);
    const explanations = {
      waterfalls: await explaining.waterfalls(sessionId, records, baseline),
      scenarios: await explaining.frozen(sessionId, records, FROZEN_VIOLATIONS),
    };
    const id = randomUUID();
    noteAuditTarget('report', id);
    const report: ReportBody = {
      id,
      title: input.title,
      note: input.note ?? null,
      created_at: new Date().toISOString(),
      created_by: { id: by.id, name: by.name },
      baseline,
      scenarios: comparison.scenarios,
      kpis: comparison.kpis,
      parameters: labelledParameters(comparison.parameters, records, domain),
      inputs: compareInputs(comparison.scenarios),
      input_changes: inputChanges,
      explanations,
      views: { comparison: comparisonViews, scenarios: scenarioViews },
    };
    await store.reports.insert({
      id: report.id,
      session_id: sessionId,
      title: report.title,
      note: report.note,
      scenario_ids: JSON.stringify(ids),
      created_by_id: by.id,
      created_by_name: by.name,
      created_at: report.created_at,
      body: JSON.stringify(report),
    });
    return report;
  }

  /** A page of the session's reports in creation order, without their bodies. */
  async page(sessionId: string, limit: number, cursor: string | undefined): Promise<Page<ReportSummary>> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor, REPORT_ORDER);
    const rows = await this.deps.store.reports.page(sessionId, limit + 1, after?.seq);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        id: row.id,
        kind: row.kind,
        title: row.title,
        note: row.note,
        scenario_ids: JSON.parse(row.scenario_ids) as string[],
        created_at: row.created_at,
        created_by: { id: row.created_by_id, name: row.created_by_name },
      })),
      next_cursor: rows.length > limit && last ? encodeCursor({ sort: REPORT_ORDER, value: null, seq: last.seq }) : null,
    };
  }

  /** The report's JSON document as stored (served without re-serializing it). */
  async json(sessionId: string, id: string): Promise<string> {
    return (await this.row(sessionId, id)).body;
  }

  /** The report as a workbook (Summary, Parameters, Inputs, a sheet per table view, About; a gate's: Verdict, Differences, About). */
  async xlsx(sessionId: string, id: string): Promise<ExportFile> {
    const row = await this.row(sessionId, id);
    // A gate's report has sheets of its own: Verdict, Differences, About.
    if (row.kind === 'gate') return this.deps.gateWorkbook(row.body);
    return reportWorkbook(JSON.parse(row.body) as ReportBody);
  }

  private async row(sessionId: string, id: string): Promise<ReportRow> {
    const row = await this.deps.store.reports.get(sessionId, id);
    if (!row) throw errors.reportNotFound(id);
    return row;
  }
}
