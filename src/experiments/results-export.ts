import { Readable } from 'node:stream';
import type { Cell, ColumnType } from '../domain/dataset-model.js';
import type { DomainRegistry } from '../domain/registry.js';
import { batched } from '../exports/chunks.js';
import { attachment } from '../exports/content-disposition.js';
import { csvLine } from '../exports/csv.js';
import { CONTENT_TYPES, type ExportFile } from '../exports/dataset-export.js';
import { xlsxStream } from '../exports/xlsx.js';
import type { ExperimentRecord, ExperimentResultRow, ExperimentsRepository } from '../store/experiments-repository.js';
import type { Axis } from './grid.js';
import { readableColumns, readableRows } from './readable-results.js';

export const RESULT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** `machine`: the columns named as the API names them, values as stored; `readable`: for people (see readable-results.ts). */
export const RESULT_STYLES = ['machine', 'readable'] as const;
export type ResultStyle = (typeof RESULT_STYLES)[number];

/** Rows read per query: the export holds one page in memory at a time. */
const PAGE = 1_000;

export interface ResultsSource {
  readonly repo: ExperimentsRepository;
  readonly domain: DomainRegistry;
  readonly record: ExperimentRecord;
  readonly axes: readonly Axis[];
}

/** The experiment's scenarios in creation order, read a page at a time. */
async function* resultRows(source: ResultsSource): AsyncGenerator<ExperimentResultRow> {
  for (let after = 0; ; ) {
    const page = await source.repo.resultRows(source.record.sessionId, source.record.id, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)!.seq;
  }
}

/** An axis value as one cell: scalars as they are, anything else (a multi-select, an interval) as JSON. */
export const cellOf = (value: unknown): Cell =>
  value === null || value === undefined ? null : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);

export interface Columns {
  readonly names: string[];
  readonly kpis: string[];
  readonly types: ColumnType[];
}

function columnsOf(source: ResultsSource): Columns {
  const kpis = source.domain.kpisFor(source.record.algoName).map((k) => k.name);
  const paths = source.axes.map((a) => a.path);
  return {
    names: ['id', 'tag', 'status', ...paths, ...kpis],
    kpis,
    types: [...(['string', 'string', 'string'] as const), ...paths.map((): ColumnType => 'string'), ...kpis.map((): ColumnType => 'float')],
  };
}

function cellsOf(row: ExperimentResultRow, paths: readonly string[], kpis: readonly string[]): Cell[] {
  const axes = JSON.parse(row.axisValuesJson) as Record<string, unknown>;
  const values = row.status === 'COMPLETE' && row.kpiValuesJson !== null ? (JSON.parse(row.kpiValuesJson) as Record<string, unknown>) : {};
  return [row.id, row.tag, row.status, ...paths.map((p) => cellOf(axes[p])), ...kpis.map((k) => (typeof values[k] === 'number' ? values[k] : null))];
}

async function* csvText(columns: Columns, rows: AsyncIterable<Cell[]>): AsyncGenerator<string> {
  yield csvLine(columns.names);
  const lines: string[] = [];
  for await (const row of rows) {
    lines.push(csvLine(row));
    if (lines.length >= PAGE) yield* batched(lines.splice(0));
  }
  yield* batched(lines);
}

async function* jsonText(source: ResultsSource, columns: Columns): AsyncGenerator<string> {
  const paths = source.axes.map((a) => a.path);
  let first = true;
  yield '[';
  for await (const row of resultRows(source)) {
    const axes = JSON.parse(row.axisValuesJson) as Record<string, unknown>;
    const kpiValues = row.status === 'COMPLETE' && row.kpiValuesJson !== null ? (JSON.parse(row.kpiValuesJson) as Record<string, number>) : {};
    const item = {
      id: row.id,
      tag: row.tag,
      status: row.status,
      axes: Object.fromEntries(paths.map((p) => [p, axes[p] ?? null])),
      kpis: Object.fromEntries(columns.kpis.map((k) => [k, kpiValues[k] ?? null])),
    };
    yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
    first = false;
  }
  yield '\n]\n';
}

async function* sheetRows(source: ResultsSource, columns: Columns): AsyncGenerator<Cell[]> {
  const paths = source.axes.map((a) => a.path);
  for await (const row of resultRows(source)) yield cellsOf(row, paths, columns.kpis);
}

/**
 * One row per scenario of the experiment: id, tag, status, its value on each axis, its KPIs (empty
 * until COMPLETE). Every format streams, reading a page of rows at a time. The `readable` style (CSV
 * and XLSX) labels the columns for people, rounds the KPIs and adds each scenario's repeat and seed
 * (readable-results.ts); the `machine` style keeps the API's names and the stored values.
 */
export async function exportResults(source: ResultsSource, format: ResultFormat, style: ResultStyle = 'machine'): Promise<ExportFile> {
  const columns = style === 'readable' ? readableColumns(source) : columnsOf(source);
  const rows = () => (style === 'readable' ? readableRows(source, resultRows(source)) : sheetRows(source, columns));
  const name = `${source.record.name.replace(/[^\w.-]+/g, '_')}${style === 'readable' ? '_readable' : ''}`;
  if (format === 'json') {
    return { contentType: 'application/json; charset=utf-8', disposition: attachment(`${name}.json`), body: Readable.from(jsonText(source, columns)) };
  }
  if (format === 'csv') return { contentType: CONTENT_TYPES.csv, disposition: attachment(`${name}.csv`), body: Readable.from(csvText(columns, rows())) };
  const sheet = { name: 'results', columns: columns.names.map((n, i) => ({ name: n, type: columns.types[i]! })), rows: rows() };
  return { contentType: CONTENT_TYPES.xlsx, disposition: attachment(`${name}.xlsx`), body: Readable.from(xlsxStream([sheet])) };
}
