/**
 * The public API for domain authors: `import { defineDomain, defineAlgorithm, defineKpi, param } from 'scenarist'`.
 */
export {
  defineAlgorithm,
  defineDataSource,
  defineDomain,
  defineExternalAlgorithm,
  defineKpi,
  defineResultType,
  defineSchemas,
  BETTER_WHEN,
  type Algorithm,
  type BetterWhen,
  type DataOf,
  type DataSource,
  type Domain,
  type DomainData,
  type DomainSeed,
  type ExternalAlgorithm,
  type ExternalCommand,
  type Kpi,
  type KpiAlgorithmNotInDomain,
  type KpiScope,
  type NoAlgorithmReturnsThisKpisResult,
  type ResultOf,
  type ResultTable,
  type PreviousPlan,
  type ResultKeys,
  type ResultType,
  type ResultTypeOptions,
  type RunContext,
  type RunLogger,
  type RunRandom,
  type RunReport,
  type Unprepared,
} from './domain/define.js';
export {
  defineExplanations,
  defineTerms,
  SEVERITIES,
  type Explanation,
  type ExplanationKit,
  type KpiTerms,
  type RowKeyOf,
  type RowRef,
  type SchemaRowRef,
  type Severity,
  type Violation,
} from './domain/explanation.js';
export type { AnyDataset, AnyRow, CellOf, CellTypes, DatasetOf, RowOf, TableName, TablesOf, TypedTable } from './domain/typed-tables.js';
export {
  defineComparisonView,
  defineDatasetView,
  defineResultView,
  VIEW_KINDS,
  type ChartViewSpec,
  type ComparedRun,
  type ComparisonView,
  type DatasetView,
  type MetricItem,
  type MetricsViewSpec,
  type ResultView,
  type TableViewSpec,
  type TextViewSpec,
  type ViewColumn,
  type ViewKind,
  type ViewSpecOf,
} from './domain/views.js';
export { param } from './params/builders.js';
// Result types declare their shape with TypeBox schemas (`defineResultType(name, Type.Object(...))`).
export { Type, type Static, type TSchema } from '@sinclair/typebox';
export type { ParamDecl, ParamDecls, ParamKind, ParamValues, IntervalValue } from './params/kinds.js';
export type { Cell, Column, ColumnType, Dataset, DatasetKind, Table, Tables } from './domain/dataset-model.js';
export type { ColumnSpec, SchemaGroup, Schemas, TableSpec } from './domain/dataset-schema.js';
// The errors a domain module throws or meets: each maps to a documented HTTP status or run error code.
export { ScenaristError, ERROR_CODES, type ErrorCode, type FieldError } from './errors.js';
export { ParameterError } from './params/errors.js';
export { DatasetFormatError } from './domain/format-error.js';
export { EtlInputError } from './datasets/etl/errors.js';
export { KpiError } from './executor/run/kpis.js';
export { RUN_ERROR_CODES, type RunErrorCode } from './model/run-state/run-error.js';
