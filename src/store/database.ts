import type { ColumnType, Generated } from 'kysely';
import type { ScenarioStatus } from '../model/run-state/state-machine.js';

/** Every table of the store, as Kysely sees it. JSON columns hold serialized text (portable across dialects). */
export interface Database {
  sessions: SessionsTable;
  datasets: DatasetsTable;
  /** A dataset's tables by position, each naming its content by hash (migration 0014). */
  dataset_tables: DatasetTablesTable;
  /** Tables stored once by the SHA-256 of their JSON text, however many datasets hold them. */
  table_contents: TableContentsTable;
  /** Tables' texts in packs (migration 0028). */
  table_packs: TablePacksTable;
  table_content_packs: TableContentPacksTable;
  scenarios: ScenariosTable;
  api_tokens: ApiTokensTable;
  event_log: EventLogTable;
  /** A view: inserting an event numbers it, logs it and queues its webhook deliveries (the outbox triggers). */
  event_outbox: EventOutboxView;
  event_counter: EventCounterTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  scenario_kpis: ScenarioKpisTable;
  scenario_log_lines: ScenarioLogLinesTable;
  experiments: ExperimentsTable;
  plans: PlansTable;
  reports: ReportsTable;
  audit_log: AuditLogTable;
  audit_head: AuditHeadTable;
  /** Acceptance gates (migration 0026): their scenarios point to them by `gate_id`. */
  gates: GatesTable;
  /** A scenario's latest explanation: KPI terms and the infeasible flag (migration 0031). */
  scenario_explanations: ScenarioExplanationsTable;
  /** Its violations, in served order, a few hundred per row (migration 0031). */
  scenario_violation_chunks: ScenarioViolationChunksTable;
  /** Every version of every dataset key, the current one included (migration 0027). */
  dataset_versions: DatasetVersionsTable;
  /** A version's tables by position, each naming its content by hash, like `dataset_tables`. */
  dataset_version_tables: DatasetVersionTablesTable;
  /** A scenario's keyed result against a published plan's, measured once (migration 0029). */
  result_churn: ResultChurnTable;
  /** Schedules (migration 0032): each tick is a `schedule_ticks` row, unique per (schedule, due time). */
  schedules: SchedulesTable;
  schedule_ticks: ScheduleTicksTable;
  /** When any node last looked for due ticks (one row, `ticker`). */
  scheduler_heartbeat: SchedulerHeartbeatTable;
}

export interface SessionsTable {
  /** Creation order: the default session is the one with the lowest seq. */
  seq: Generated<number>;
  id: string;
  display_name: string;
  created_at: string;
}

export interface DatasetsTable {
  seq: Generated<number>;
  session_id: string;
  key: string;
  kind: 'master' | 'derived';
  created_at: string;
  /** Changes whenever the dataset under this key is replaced, so workers can cache parsed data by it. */
  version: string;
  /** The key of the dataset this one was derived from with edits; null for any other dataset. */
  parent_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of the edits made to the parent, each with its effect (`rows`); null when none. */
  edits_json: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of the edits a rebase skipped (`on_conflict: "skip"`), each with its path and why; null otherwise (migration 0030). */
  rebase_skipped: ColumnType<string | null, string | null | undefined, string | null>;
  /** The key's current version number: 1 for its first write, one more at each replacement (migration 0027). */
  version_no: ColumnType<number, number | undefined, number>;
  /** The parent's `version_no` this dataset was derived from; null when not derived (migration 0027). */
  parent_version: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One version of a dataset key (migration 0027): what the key held from this write until the next. */
export interface DatasetVersionsTable {
  seq: Generated<number>;
  session_id: string;
  key: string;
  version_no: number;
  kind: 'master' | 'derived';
  /** When this version was written. */
  created_at: string;
  /** Who wrote it, as the audit trail names them; null for a write outside audited work (the start-up seed). */
  created_by: string | null;
  parent_key: string | null;
  parent_version: number | null;
  edits_json: string | null;
}

export interface DatasetVersionTablesTable {
  /** The version's `seq`; deleting the version deletes its rows here. */
  version_seq: number;
  position: number;
  name: string;
  hash: string;
}

export interface DatasetTablesTable {
  /** The dataset's `seq`; deleting the dataset deletes its rows here. */
  dataset_seq: number;
  /** The table's place in the dataset's `tables` object (its JSON form keeps this order). */
  position: number;
  name: string;
  hash: string;
}

export interface TableContentsTable {
  /** SHA-256 (hex) of the table's JSON text, `{"columns":[...],"rows":[...]}` as `JSON.stringify` writes it. */
  hash: string;
  /**
   * JSON `{"packs":[[id, length], ...],"segments":[[pack index, start, end], ...]}`: the table's text is
   * those stretches of `table_packs` texts in order (migration 0028; read it with `packedTable` of
   * `src/store/table-pack-text.ts`).
   */
  manifest: string;
  /** Row count and columns, so lists of datasets never read the rows. */
  row_count: number;
  columns_json: string;
}

/** Texts of tables (migration 0028): a table's new text goes into one pack; later versions name stretches of it. */
export interface TablePacksTable {
  id: Generated<number>;
  text: string;
}

/** Which packs a table content's manifest names, so a pack no content names is found and collected. */
export interface TableContentPacksTable {
  hash: string;
  pack_id: number;
}

/** The `status` column holds the state machine's states (`src/model/run-state/state-machine.ts`). */
export type StoredStatus = ScenarioStatus;

export interface ScenariosTable {
  /** Creation order within the store; lists are ordered by it. */
  seq: Generated<number>;
  id: string;
  session_id: string;
  tag: string;
  dataset_key: string;
  algo_name: string;
  /** JSON object of validated algorithm parameter values. */
  algo_params: string;
  /** JSON object of validated data parameter values. */
  data_params: string;
  status: StoredStatus;
  progress: number;
  /** JSON text of the algorithm's result, set at COMPLETE. */
  result: string | null;
  /** JSON object of KPI name to value, set at COMPLETE. */
  kpi_values: string | null;
  error: string | null;
  /** Why the run failed, for machines (`RunErrorCode`); null unless FAILED. */
  error_code: string | null;
  /** How many times a run of this scenario was started since it was last queued by a client. */
  attempts: number;
  /** FIFO position among queued scenarios of the session. */
  queue_order: number | null;
  created_at: string;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** The process running it (distributed executor) and until when its lease holds. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** The run's latest `ctx.report`, as its wire JSON (`ReportView`); null until it reports. */
  report: string | null;
  /** The seed of `ctx.random`, set at claim; null before a run started. */
  seed: number | null;
  /** `ctx.log` lines the latest run wrote; its last 1,000 (numbered up to this) are in `scenario_log_lines`. */
  log_count: Generated<number>;
  /** What the run threw, when FAILED by its own error: class, and stack frames as a JSON array. */
  error_class: string | null;
  error_stack: string | null;
  /** The experiment that made it (null for a scenario created alone). */
  experiment_id: string | null;
  /** Its combination's index in the experiment's grid (repeats share it). */
  experiment_combo: number | null;
  /** JSON object of axis path to this scenario's value on it. */
  axis_values: string | null;
  /** The scenario it was branched from; null for a root (created alone, or its parent was deleted). */
  parent_id: string | null;
  /** Set (with the tag) when its parent was deleted, by trigger: a root by deletion, not by creation. */
  deleted_parent_id: string | null;
  deleted_parent_tag: string | null;
  /** The gate that made it, its pair's index and side (`baseline` or `candidate`); null otherwise (migration 0026). */
  gate_id: ColumnType<string | null, string | null | undefined, string | null>;
  gate_pair: ColumnType<number | null, number | null | undefined, number | null>;
  gate_side: ColumnType<'baseline' | 'candidate' | null, 'baseline' | 'candidate' | null | undefined, 'baseline' | 'candidate' | null>;
  /** The seed every run of it takes for `ctx.random` (a gate's pair shares one); null: a fresh seed per run. */
  pinned_seed: ColumnType<number | null, number | null | undefined, number | null>;
  /** Its dataset's `version_no` when it was created, reset or queued again (set by trigger, migration 0027). */
  dataset_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The version its latest run read, set by trigger at claim: its result's version once COMPLETE (migration 0027). */
  result_dataset_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The published plan's scenario whose result its latest warm-started run received; null: none (migration 0029). */
  warm_start_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** The scenario it was rebased from (`POST .../rebase`); null otherwise (migration 0030). */
  rebased_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** The published plan's scenario it re-plans (`POST .../plan/replan`); null otherwise (migration 0030). */
  replans: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiTokensTable {
  seq: Generated<number>;
  /** Public identifier (list, revoke); never the secret. */
  id: string;
  name: string | null;
  /** SHA-256 hex of the whole token; the token itself is shown once and never stored. */
  token_hash: string;
  scope: 'read' | 'run' | 'admin' | 'metrics';
  /** The only session the token may touch; null for every session. */
  session_id: string | null;
  created_at: string;
  /** Updated lazily (at most about once a minute per process). */
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The bounded log of client-visible events (SSE, webhooks); `id` increases in commit order. */
export interface EventOutboxView {
  session_id: string;
  type: string;
  /** The event's own fields as a JSON object (without id, type, session and time). */
  details: string;
}

export interface EventLogTable {
  /** bigint on PostgreSQL, which the driver answers as a string. */
  id: number | string;
  session_id: string;
  type: string;
  at: string;
  /** The event's own fields as a JSON object; the delivered text puts id, type, session_id and at first. */
  data: string;
}

/** One row (`name` = 'events'): the last event id given out, updated in each inserting transaction. */
export interface EventCounterTable {
  name: string;
  value: number | string;
}

export interface WebhooksTable {
  id: string;
  session_id: string;
  url: string;
  /** JSON array of the event types delivered. */
  events: string;
  secret: string;
  created_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: number | string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  /** Claimed by a dispatcher until then (several processes share the queue on PostgreSQL). */
  locked_until: string | null;
  created_at: string;
}

/** One KPI value of a scenario, indexed for sorting lists by a KPI; counts only while the scenario is COMPLETE. */
export interface ScenarioKpisTable {
  scenario_seq: number;
  session_id: string;
  name: string;
  value: number;
}

/** A `ctx.log` line of a scenario's latest run (only lines numbered up to its `log_count` count). */
export interface ScenarioLogLinesTable {
  scenario_seq: number;
  /** 1 for the run's first line. */
  line: number;
  at: string;
  level: string;
  message: string;
  /** JSON object text, or null without fields. */
  fields: string | null;
}

/** A parameter sweep: its scenarios point to it by `experiment_id`. */
export interface ExperimentsTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  /** Unique within the session; its scenarios are tagged `<name>/<n>`. */
  name: string;
  algo_name: string;
  /** JSON of the request as validated: dataset, base parameters, axes (values listed), repeats. */
  spec: string;
  /** How many scenarios it created (combinations times repeats). */
  size: number;
  created_at: string;
  /** Set when the last run ended, by the first process to see it; cleared when one is queued again (by trigger). */
  completed_at: string | null;
  /** Changes whenever a scenario of it is queued (by trigger): a completion is claimed for the stamp it was judged at. */
  reopen_stamp: Generated<number>;
}

/** One publication of a session's plan; `ended_at` is null while it is the current plan (one per session). */
export interface PlansTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  /** No foreign key: the history keeps a plan whose scenario was deleted after it ended. */
  scenario_id: string;
  tag: string;
  dataset_key: string;
  algo_name: string;
  /** JSON object of the scenario's KPI entries (`{ name, value, unit, better_when, threshold }`) when published. */
  kpis: string;
  note: string;
  published_by_id: string;
  published_by_name: string | null;
  published_at: string;
  ended_at: string | null;
  ended_how: 'superseded' | 'withdrawn' | null;
  ended_note: string | null;
  ended_by_id: string | null;
  ended_by_name: string | null;
  /** The dataset version its scenario's result was computed on, set by trigger at publication (migration 0027). */
  dataset_version: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A frozen comparison: written once, never updated. */
export interface ReportsTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  title: string;
  note: string | null;
  /** JSON array of the compared scenario ids, in the order shown. */
  scenario_ids: string;
  created_by_id: string;
  created_by_name: string | null;
  created_at: string;
  /** The report's JSON document (`ReportBody`, or `GateReportBody` for a gate), served as stored. */
  body: string;
  /** What it froze: a comparison of scenarios, or a gate's verdict (migration 0026-report-kind). */
  kind: ColumnType<ReportKind, ReportKind | undefined, never>;
}

/** A report of a comparison (Compare's "Save as report") or of a gate (docs/api/gates.md). */
export type ReportKind = 'comparison' | 'gate';

/** One recorded write (see migrations/0017-audit.ts): who did what to which ids, and with what outcome. */
export interface AuditLogTable {
  seq: number;
  /** Database time, ISO-8601. */
  at: string;
  /** The API token's id; null when authentication is off (or for the service's own actions). */
  token_id: string | null;
  /** The token's name (its id when unnamed), `local` when authentication is off, `system` for the service itself. */
  who: string;
  /** The client address after `forwarded_allow_ips`; null outside HTTP (the CLI, the service itself). */
  address: string | null;
  action: string;
  session_id: string | null;
  /** JSON object text: target kind → id. */
  targets: string;
  /** The outcome: the HTTP status answered (or the route's success status, written with the write). */
  status: number;
  prev_hash: string;
  hash: string;
}

/** The audit chain's one head row: its last entry, and the last entry pruned (the anchor). */
export interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
  anchor_seq: number;
  anchor_hash: string;
}

/** An acceptance gate: paired runs of a baseline and a candidate (docs/api/gates.md). */
export interface GatesTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  /** Unique within the session; its scenarios are tagged `<name>/<side>/<n>`. */
  name: string;
  /** JSON of the request as validated: both sides, the resolved inputs, repeats, KPIs, alpha, min_effect, rule. */
  spec: string;
  /** How many scenarios it created (both sides). */
  size: number;
  created_at: string;
}

/** How far a scenario's keyed result is from a plan's (docs/api/cycles.md); valid while both still match. */
export interface ResultChurnTable {
  scenario_id: string;
  session_id: string;
  /** The plan (`plans.id`) it was measured against. */
  plan_id: string;
  /** The scenario's `finished_at` when its result was read: a rerun's result no longer matches it. */
  result_finished_at: string;
  /** Result-table rows added, removed or changed against the plan's, over every keyed result table. */
  rows_changed: number;
  /** rows_changed / every row key on either side, in [0, 1]. */
  share: number;
}

/** A schedule (docs/api/schedules.md); `action` and `notify` hold JSON text, `active` is 0 or 1. */
export interface SchedulesTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  name: string;
  cron: string;
  timezone: string;
  active: number;
  refresh_key: string | null;
  action: string;
  notify: string | null;
  catch_up: 'none' | 'latest' | 'all';
  catch_up_bound: number | null;
  /** Ticks are due strictly after this instant (creation, resumption or a new cron moves it). */
  ticks_from: string;
  /** `catch_up: all`: ticks due up to this instant wait for the running one instead of being skipped. */
  backlog_until: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

export type TickStatus = 'running' | 'done' | 'failed' | 'skipped';
/** How far a running tick got; each step's effects are recorded on the row with it. */
export type TickStage = 'claimed' | 'refreshed' | 'acted' | 'ended';

export interface ScheduleTicksTable {
  seq: Generated<number>;
  id: string;
  schedule_id: string;
  session_id: string;
  due_at: string;
  /** 1 for a tick asked for with `POST .../run`. */
  manual: number;
  status: TickStatus;
  stage: TickStage;
  reason: string | null;
  error: string | null;
  /** Ticks missed while no node was up that this one stands for (`catch_up`). */
  missed: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until: string | null;
  started_at: string | null;
  ended_at: string | null;
  /** JSON: the refresh's files and the ETL's answer. */
  refresh: string | null;
  data_version: number | null;
  /** JSON: what the action found before acting, so a take-over can tell whether it acted. */
  action_mark: string | null;
  /** JSON array of the scenario ids the tick made or ran. */
  scenario_ids: string | null;
  /** JSON: KPI deltas, churn and the alerts raised. */
  outcome: string | null;
}

export interface SchedulerHeartbeatTable {
  name: string;
  seen_at: string;
}

/** One explanation per scenario (migration 0031); served only while `finished_at` is the scenario's. */
export interface ScenarioExplanationsTable {
  scenario_seq: number;
  session_id: string;
  /** The `finished_at` of the run that gave it. */
  finished_at: string;
  /** 1 when the run is infeasible (a hard violation, or the algorithm said so), else 0. */
  infeasible: number;
  /** JSON array of the KPIs' explanations (`KpiExplanation`). */
  kpis: string;
  violation_count: number;
}

export interface ScenarioViolationChunksTable {
  scenario_seq: number;
  /** 0, 1, ...: chunk `c` holds violations `c × 500` to `c × 500 + 499`. */
  chunk: number;
  /** JSON array of violations, Brotli-compressed: `unpackChunk` reads it. */
  body: Buffer;
}
