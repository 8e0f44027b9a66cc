import { Readable } from 'node:stream';
import type { Cell } from '../domain/dataset-model.js';
import { attachment } from '../exports/content-disposition.js';
import { CONTENT_TYPES, type ExportFile } from '../exports/dataset-export.js';
import { reportHeadingRows } from '../exports/report-about.js';
import { sheetNames, xlsxStream, type SheetSource } from '../exports/xlsx.js';
import type { TablePage, ViewBody, WholeView } from '../views/rendered.js';
import { inputChangeRows } from './input-change-rows.js';
import type { InputComparison, ReportBody } from './report-body.js';

/** A value of any JSON type as one cell: scalars as they are, anything else as its JSON text. */
const cellOf = (value: unknown): Cell =>
  value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? (value ?? null) : JSON.stringify(value);

const text = (name: string) => ({ name, type: 'string' as const });
const number = (name: string) => ({ name, type: 'float' as const });

/** Summary: one row per KPI and scenario, with its value and its delta to the baseline's. */
function summarySheet(report: ReportBody): Omit<SheetSource, 'name'> {
  const tagOf = new Map(report.scenarios.map((s) => [s.id, s.tag]));
  const rows = report.kpis.flatMap((kpi) =>
    kpi.values.map((v): Cell[] => [
      kpi.name,
      kpi.unit,
      kpi.better_when,
      tagOf.get(v.scenario_id) ?? v.scenario_id,
      v.scenario_id,
      v.scenario_id === report.baseline,
      v.value,
      v.delta,
      v.relative_delta,
      v.comparison,
      kpi.best === v.scenario_id,
    ]),
  );
  return {
    columns: [text('kpi'), text('unit'), text('better_when'), text('tag'), text('scenario_id'), { name: 'baseline', type: 'boolean' }, number('value'), number('delta'), number('relative_delta'), text('comparison'), { name: 'best', type: 'boolean' }],
    rows,
  };
}

/** Parameters or inputs: one row each, one column per scenario (by tag), and whether they differ. */
function sideBySide(report: ReportBody, label: string, items: readonly InputComparison[]): Omit<SheetSource, 'name'> {
  return {
    columns: [text(label), { name: 'differs', type: 'boolean' }, ...report.scenarios.map((s) => text(s.tag))],
    rows: items.map((item) => [item.name, item.differs, ...valuesOf(report, item)]),
  };
}

/** Parameters side by side, each with its frozen label after its name (empty in a report saved before labels were frozen). */
function parametersSheet(report: ReportBody): Omit<SheetSource, 'name'> {
  return {
    columns: [text('parameter'), text('label'), { name: 'differs', type: 'boolean' }, ...report.scenarios.map((s) => text(s.tag))],
    rows: report.parameters.map((p) => [p.name, p.label ?? null, p.differs, ...valuesOf(report, p)]),
  };
}

/** One row's value for each scenario, in the report's order. */
function valuesOf(report: ReportBody, item: InputComparison): Cell[] {
  return report.scenarios.map((s) => cellOf(item.values.find((v) => v.scenario_id === s.id)?.value));
}

/** What each scenario changes against the baseline: parameters, dataset edits, tables of an unrelated dataset. */
function inputChangesSheet(report: ReportBody): Omit<SheetSource, 'name'> {
  const tags = new Map(report.scenarios.map((s) => [s.id, s.tag]));
  return {
    columns: [text('tag'), text('kind'), text('what'), text('from'), text('to')],
    rows: inputChangeRows(report.input_changes, (id) => tags.get(id) ?? id),
  };
}

/** What the report is: title, note, who and when, the baseline. */
function aboutSheet(report: ReportBody): Omit<SheetSource, 'name'> {
  const baseline = report.scenarios.find((s) => s.id === report.baseline);
  return {
    columns: [text('field'), text('value')],
    rows: [
      ...reportHeadingRows(report),
      ['baseline', baseline ? `${baseline.tag} (${baseline.id})` : report.baseline],
      ['report_id', report.id],
    ],
  };
}

/** A table view that was drawn (a failed one has no rows to write). */
const isDrawnTable = (view: WholeView): view is ViewBody => view.kind === 'table' && 'spec' in view;

function tableSheet(view: ViewBody): Omit<SheetSource, 'name'> {
  const table = view.spec as TablePage;
  return { columns: table.columns.map((c) => ({ name: c.label || c.name, type: c.type })), rows: table.rows };
}

/**
 * The report as a workbook: Summary (the KPI deltas), Parameters, Inputs, one sheet per table view
 * (comparison views first, then each scenario's, named `<tag> <view title>`), and About.
 */
export function reportWorkbook(report: ReportBody): ExportFile {
  const tables: { title: string; view: ViewBody }[] = [
    ...report.views.comparison.filter(isDrawnTable).map((view) => ({ title: view.title, view })),
    ...report.views.scenarios.flatMap((s) => s.views.filter(isDrawnTable).map((view) => ({ title: `${s.tag} ${view.title}`, view }))),
  ];
  const sources = [
    { title: 'Summary', sheet: summarySheet(report) },
    { title: 'Parameters', sheet: parametersSheet(report) },
    { title: 'Inputs', sheet: sideBySide(report, 'input', report.inputs) },
    { title: 'Input changes', sheet: inputChangesSheet(report) },
    ...tables.map(({ title, view }) => ({ title, sheet: tableSheet(view) })),
    { title: 'About', sheet: aboutSheet(report) },
  ];
  const names = sheetNames(sources.map((s) => s.title));
  return {
    contentType: CONTENT_TYPES.xlsx,
    disposition: attachment(`${report.title}.xlsx`),
    body: Readable.from(xlsxStream(sources.map(({ sheet }, i) => ({ ...sheet, name: names[i]! })))),
  };
}
