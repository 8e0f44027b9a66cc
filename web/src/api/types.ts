import type { operations } from 'scenarist/client';
import type { RunReport } from './run-report.ts';

/**
 * The shapes the dashboard reads, taken from the typed client's generated schema (`src/client/schema.ts`,
 * generated from the server's OpenAPI document), so a change of the API breaks the build here instead of
 * the page at run time. Only what the document leaves untyped is declared by hand below.
 */

/** The JSON body of an operation's success answer. */
export type Answer<Op extends keyof operations, Code extends keyof operations[Op]['responses']> = operations[Op]['responses'][Code] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

export type SessionList = Answer<'listSessions', 200>;
export type Session = SessionList['sessions'][number];

export type ParameterSchema = Answer<'getAlgorithmParameters', 200>;
export type ParameterDescriptor = ParameterSchema['parameters'][number];
export type ParamKind = ParameterDescriptor['type'];

export type SchemaGroup = Answer<'listSchemas', 200>['items'][number];
export type SchemaColumn = SchemaGroup['tables'][number]['columns'][number];

export type AlgorithmInfo = Answer<'listAlgorithms', 200>['items'][number];
export type KpiInfo = Answer<'listKpis', 200>['items'][number];
export type BetterWhen = KpiInfo['better_when'];

/** `GET .../data` with a query answers a page of items (without one, only the keys). */
export type DatasetPage = Extract<Answer<'listDatasets', 200>, { items: unknown }>;
export type DatasetSummary = DatasetPage['items'][number];
export type Column = DatasetSummary['tables'][number]['columns'][number];

export type EtlResult = Answer<'uploadDataset', 200>;

/**
 * A scenario as `GET .../scenarios/{id}` and the plain list answer it, plus the run report the
 * run-insight routes add (absent until the run reports; see `./run-report.ts`).
 */
export type Scenario = Answer<'getScenario', 200> & { report?: RunReport };
export type Status = Scenario['status'];
export type KpiValue = Scenario['kpis'][string];

/** Every status, in lifecycle order (the filter's choices); `satisfies` keeps it in step with the schema. */
export const STATUSES = ['CREATED', 'QUEUED', 'PROCESSING', 'COMPLETE', 'FAILED'] as const satisfies readonly Status[];

export type CompareResult = Answer<'compareScenarios', 200>;

/**
 * A dataset's JSON form (`GET .../data/{key}`): the OpenAPI document declares that answer as any JSON
 * (its tables depend on the domain's schema), so its outline is declared here, as docs/api/contract.md
 * describes it.
 */
export interface DatasetForm {
  key: string;
  kind?: 'master' | 'derived';
  created_at?: string;
  tables: Record<string, { columns: Column[]; rows: unknown[][] }>;
}
