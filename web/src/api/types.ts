/**
 * The shapes the dashboard reads from the Scenarist API (the spec's routes plus the additive ones of the
 * coordination contract). Optional fields are the ones an older server does not send.
 */

export type Status = 'CREATED' | 'QUEUED' | 'PROCESSING' | 'COMPLETE' | 'FAILED';
export const STATUSES: readonly Status[] = ['CREATED', 'QUEUED', 'PROCESSING', 'COMPLETE', 'FAILED'];
export type BetterWhen = 'HIGHER' | 'LOWER' | 'AT_LEAST' | 'AT_MOST';

export interface Session {
  id: string;
  display_name: string;
}
export interface SessionList {
  sessions: Session[];
  default: string;
}

export type ParamKind = 'integer' | 'float' | 'string' | 'boolean' | 'enum' | 'multi_enum' | 'time' | 'interval';
export const PARAM_KINDS: readonly ParamKind[] = ['integer', 'float', 'string', 'boolean', 'enum', 'multi_enum', 'time', 'interval'];

export interface ParameterDescriptor {
  name: string;
  type: ParamKind;
  required: boolean;
  value: unknown;
  default?: unknown;
  min?: number;
  max?: number;
  choices?: string[];
  description?: string;
}
export interface ParameterSchema {
  name: string;
  parameters: ParameterDescriptor[];
}

export interface AlgorithmInfo {
  name: string;
  description?: string;
  tags?: string[];
}
export interface KpiInfo {
  name: string;
  unit?: string;
  better_when?: BetterWhen;
  threshold?: number | null;
  description?: string;
}

export interface Column {
  name: string;
  type: string;
}
export interface TableForm {
  columns: Column[];
  rows: unknown[][];
}
export interface DatasetForm {
  key: string;
  kind?: 'master' | 'derived';
  created_at?: string;
  tables: Record<string, TableForm>;
}
export interface DatasetSummary {
  key: string;
  kind?: string;
  created_at?: string;
  tables?: { name: string; columns: Column[] | number; rows: number }[];
}

export interface EtlMessage {
  severity: 'info' | 'warning' | 'error';
  file?: string;
  table?: string;
  column?: string;
  row?: number;
  message: string;
}
export interface EtlResult {
  dataset_name: string;
  success: boolean;
  keys: string[];
  messages: EtlMessage[];
}

export interface KpiValue {
  name: string;
  value: number | null;
  unit: string;
  better_when: BetterWhen;
  threshold: number | null;
}
export interface RunReport {
  objective?: number;
  best_so_far?: number;
  message?: string;
  at: string;
}
export interface Scenario {
  id: string;
  tag: string;
  input_data_id: string;
  algorithm: { name: string; parameters: ParameterDescriptor[] };
  kpis: Record<string, KpiValue>;
  status: Status;
  result?: unknown;
  data_parameters: Record<string, unknown>;
  progress: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: { message: string; code?: string } | null;
  report?: RunReport | null;
}
export interface ScenarioStatus {
  id: string;
  tag: string;
  status: Status;
  progress: number;
  report?: RunReport | null;
}

export interface LogLine {
  at: string;
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}
export interface RunLogs {
  lines: LogLine[];
  truncated: boolean;
  error: { class: string; message: string; stack: string[] } | null;
}

export type Comparison = 'better' | 'worse' | 'equal' | null;
export interface CompareResult {
  baseline: string;
  scenarios: { id: string; tag: string; status: Status; algorithm: string; dataset_key: string }[];
  kpis: {
    name: string;
    unit: string;
    better_when: BetterWhen;
    threshold: number | null;
    best: string | null;
    values: { scenario_id: string; value: number | null; delta: number | null; relative_delta: number | null; comparison: Comparison }[];
  }[];
  parameters: { name: string; values: { scenario_id: string; value: unknown }[]; differs: boolean }[];
}

/** One server-sent event of `GET /sessions/{sid}/events`. */
export interface ServerEvent {
  id: number;
  type: string;
  session_id: string;
  at: string;
  scenario_id?: string;
  tag?: string;
  status?: Status;
  progress?: number;
  report?: RunReport | null;
  message?: string;
  dataset_key?: string;
  display_name?: string;
}
