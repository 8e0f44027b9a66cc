import { Readable } from 'node:stream';
import type { Cell } from '../domain/dataset-model.js';
import { attachment } from '../exports/content-disposition.js';
import { CONTENT_TYPES, type ExportFile } from '../exports/dataset-export.js';
import { reportHeadingRows } from '../exports/report-about.js';
import { xlsxStream, type SheetSource } from '../exports/xlsx.js';
import type { GateReportBody } from './gate-report.js';

const text = (name: string) => ({ name, type: 'string' as const });
const number = (name: string) => ({ name, type: 'float' as const });
const integer = (name: string) => ({ name, type: 'integer' as const });

/** Verdict: the verdict table, one row per KPI, the interval as its two bounds. */
function verdictSheet(report: GateReportBody): SheetSource {
  return {
    name: 'Verdict',
    columns: [text('kpi'), text('unit'), text('better_when'), number('min_effect'), text('verdict'), number('mean_difference'), number('median_difference'), number('ci_low'), number('ci_high'), number('p_value'), integer('n'), text('test')],
    rows: report.kpis.map((k): Cell[] => [k.kpi, k.unit, k.better_when, k.min_effect, k.verdict, k.mean_difference, k.median_difference, k.ci?.[0] ?? null, k.ci?.[1] ?? null, k.p_value, k.n, k.test]),
  };
}

/** Differences: each KPI's paired differences (candidate − baseline), one row per counted pair. */
function differencesSheet(report: GateReportBody): SheetSource {
  return {
    name: 'Differences',
    columns: [text('kpi'), integer('pair'), number('difference')],
    rows: report.kpis.flatMap((k) => k.differences.map((d, i): Cell[] => [k.kpi, (k.pairs[i] ?? i) + 1, d])),
  };
}

/** About: the report (title, note, who, when) and the gate (sides, inputs, repeats, alpha, rule, verdict). */
function aboutSheet(report: GateReportBody): SheetSource {
  const g = report.gate;
  const side = (s: typeof g.baseline) => `${s.algo_name} ${JSON.stringify(s.algo_params)}${Object.keys(s.data_params).length > 0 ? ` data ${JSON.stringify(s.data_params)}` : ''}`;
  return {
    name: 'About',
    columns: [text('field'), text('value')],
    rows: [
      ...reportHeadingRows(report),
      ['verdict', report.verdict],
      ['gate', `${g.name} (${g.id})`],
      ['baseline', side(g.baseline)],
      ['candidate', side(g.candidate)],
      ['inputs', JSON.stringify(g.inputs)],
      ['datasets', g.dataset_keys.join(', ')],
      ['repeats', String(g.repeats)],
      ['alpha', String(g.alpha)],
      ['min_effect', JSON.stringify(g.min_effect)],
      ['rule', `must pass: ${g.rule.must_pass.join(', ') || '-'}; must not fail: ${g.rule.must_not_fail.join(', ') || '-'}`],
      ['runs', `${g.size} (${g.counts.COMPLETE} complete, ${g.counts.FAILED} failed)`],
      ['report_id', report.id],
    ],
  };
}

/** A gate report as a workbook: Verdict, Differences, About. */
export function gateReportWorkbook(report: GateReportBody): ExportFile {
  return {
    contentType: CONTENT_TYPES.xlsx,
    disposition: attachment(`${report.title}.xlsx`),
    body: Readable.from(xlsxStream([verdictSheet(report), differencesSheet(report), aboutSheet(report)])),
  };
}

/** The workbook of a gate's report from its body as stored (the reports' JSON text). */
export const gateReportWorkbookOf = (body: string): ExportFile => gateReportWorkbook(JSON.parse(body) as GateReportBody);
