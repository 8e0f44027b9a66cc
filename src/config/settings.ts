import type { SpeedLayer } from './speed-layers.js';

/** The validated, frozen settings of one server or worker process. */
export interface Settings {
  readonly host: string;
  readonly port: number;
  readonly prefix: string;
  readonly corsOrigins: readonly string[];
  readonly allowSessionCreate: boolean;
  /** `undefined`: ignore X-Forwarded-*; `'*'`: trust every peer; a list: trust only those peer addresses. */
  readonly forwardedAllowIps: '*' | readonly string[] | undefined;
  readonly title: string;
  readonly autocreate: boolean;
  readonly defaultAlgo: string | undefined;
  readonly defaultAlgoParams: Readonly<Record<string, unknown>>;
  readonly autorun: boolean;
  readonly dataDir: string;
  /** Where data drops for schedules' refreshes are taken from (`<dropDir>/<session>/<dataset key>/`). */
  readonly dropDir: string;
  /** `sqlite:<path>` (default: `<dataDir>/scenarist.db`) or `postgres://...`. */
  readonly databaseUrl: string;
  /** Algorithm worker threads in this process; 0 makes a pure API node. */
  readonly workers: number;
  /**
   * How many scenarios of one session may be PROCESSING at once; 1 (the default) is the spec's rule.
   * Above 1 a session's runs (an experiment's, a gate's) spread over that many worker slots, started
   * in FIFO order (docs/api/runs.md, "Several runs of a session at once").
   */
  readonly maxRunningPerSession: number;
  /** Module specifier or path of the domain module. */
  readonly domain: string;
  readonly bodyLimitBytes: number;
  readonly uploadLimitBytes: number;
  /** Longest row, cell, CSV record, JSON string or XLSX run of text an upload may hold (over it: 400). */
  readonly uploadMaxFieldBytes: number;
  /** Longest time an upload's work may take on its thread before it is stopped (413, nothing stored). */
  readonly uploadTimeLimitMs: number;
  /** Longest time an upload waits for a free upload thread before a 503 with Retry-After; 0 = none. */
  readonly uploadQueueWaitMs: number;
  /** How long an upload or view thread stays without work before it exits and returns its memory, in ms. */
  readonly dataThreadIdleMs: number;
  /** The heap (V8 old generation) one upload or view thread may use, in MiB; past it only that task is refused. */
  readonly dataThreadHeapMb: number;
  readonly logLevel: LogLevel;
  /** `token`: every route but health, docs and UI needs a bearer token; `none`: no authentication. */
  readonly auth: AuthMode;
  /** How long a run may take before it is stopped and FAILED (TIME_LIMIT); an algorithm's `timeLimitMs` wins. */
  readonly runTimeLimitMs: number;
  /** Host names a request's `Host` may carry (DNS-rebinding guard); `'*'` accepts every host. */
  readonly allowedHosts: '*' | readonly string[];
  /** Longest time to receive a whole request (headers and body), in ms; 0 = no limit. */
  readonly requestTimeoutMs: number;
  /** Longest time to receive a request's headers, in ms. */
  readonly headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open, in ms. */
  readonly keepAliveTimeoutMs: number;
  /** After SIGTERM/SIGINT, how long to keep serving with `/health/ready` at 503 before closing, in ms. */
  readonly shutdownDelayMs: number;
  /** CIDR ranges webhooks may reach although they are internal (loopback, private ...); empty: none. */
  readonly webhookAllowNetworks: readonly string[];
  /** Most scenarios one experiment may create (combinations times repeats); more is a 413. */
  readonly maxExperimentSize: number;
  /** After SIGTERM on cancel or time limit, how long an external algorithm's processes have before SIGKILL, in ms. */
  readonly externalKillGraceMs: number;
  /** Most bytes an external algorithm may write on stdout (its result). */
  readonly externalStdoutLimitBytes: number;
  /** Longest stderr line of an external algorithm, in bytes. */
  readonly externalStderrLineLimitBytes: number;
  /** Most stderr lines per second an external algorithm may write. */
  readonly externalStderrRate: number;
  /** An external algorithm's address-space limit in bytes; 0: none. */
  readonly externalMemoryLimitBytes: number;
  /** How long audit entries are kept, in ms; older ones are pruned (the chain keeps an anchor). */
  readonly auditRetentionMs: number;
  /**
   * How many versions each dataset key keeps (docs/api/cycles.md): after a write the oldest beyond it
   * go, except those a scenario, report or plan uses; `all` (the default) keeps every one.
   */
  readonly datasetVersionsKept: number | 'all';
  /** Each run thread's V8 heap limit in MiB: past it the thread ends and its run FAILS. */
  readonly workerHeapLimitMb: number;
  /** The run threads stop after this long without a run, in ms; the next run starts them again. */
  readonly workerIdleTimeoutMs: number;
  /** The speed layers switched off (a benchmark's comparison; see `speed-layers.ts`). */
  readonly speedLayersOff: ReadonlySet<SpeedLayer>;
  /**
   * Records nothing in the audit trail: only for a benchmark that measures the trail's cost beside the
   * same server with it on (bench/audit.bench.ts). Never in a deployment, where every write must be recorded.
   */
  readonly benchAuditOff: boolean;
}

export const AUTH_MODES = ['token', 'none'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting by its snake_case name: the key used in config files, the `SCENARIST_<NAME>` env
 * variable and (kebab-cased) the CLI flag.
 */
export const SETTING_NAMES = [
  'host',
  'port',
  'prefix',
  'cors_origins',
  'allow_session_create',
  'forwarded_allow_ips',
  'title',
  'autocreate',
  'default_algo',
  'default_algo_params',
  'autorun',
  'data_dir',
  'drop_dir',
  'database_url',
  'workers',
  'max_running_per_session',
  'domain',
  'body_limit',
  'upload_limit',
  'upload_max_field',
  'upload_time_limit',
  'upload_queue_wait',
  'data_thread_idle',
  'data_thread_heap',
  'log_level',
  'auth',
  'run_time_limit',
  'allowed_hosts',
  'request_timeout',
  'headers_timeout',
  'keep_alive_timeout',
  'shutdown_delay',
  'webhook_allow_networks',
  'max_experiment_size',
  'external_kill_grace',
  'external_stdout_limit',
  'external_stderr_line_limit',
  'external_stderr_rate',
  'external_memory_limit',
  'audit_retention',
  'dataset_versions_kept',
  'worker_heap_limit',
  'worker_idle_timeout',
  'bench_layers_off',
  'bench_audit_off',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/** Raw values as given by one source: strings from flags and env, any JSON from a config file. */
export type RawSettings = Partial<Record<SettingName, unknown>>;
