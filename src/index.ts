/**
 * The public API for domain authors: `import { defineDomain, defineAlgorithm, defineKpi, param } from 'scenarist'`.
 */
export {
  defineAlgorithm,
  defineDataSource,
  defineDomain,
  defineKpi,
  BETTER_WHEN,
  type Algorithm,
  type BetterWhen,
  type DataSource,
  type Domain,
  type DomainSeed,
  type Kpi,
  type ResultTable,
  type RunContext,
  type RunLogger,
} from './domain/define.js';
export { param } from './params/builders.js';
export { ParameterError } from './params/errors.js';
export type { ParamDecl, ParamDecls, ParamKind, ParamValues, IntervalValue } from './params/kinds.js';
export type { Cell, Column, ColumnType, Dataset, DatasetKind, Table, Tables } from './datasets/model.js';
export { DatasetFormatError } from './datasets/format-error.js';
export type { ColumnSpec, SchemaGroup, Schemas, TableSpec } from './datasets/schema.js';
