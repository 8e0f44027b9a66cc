import ipaddr from 'ipaddr.js';
import { availableParallelism } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { SettingError } from './setting-error.js';
import { isLoopbackHost } from './loopback.js';
import { AUTH_MODES, LOG_LEVELS, type AuthMode, type LogLevel, type RawSettings, type Settings } from './settings.js';
import { parseBoolean, parseDays, parseDuration, parseInteger, parseJsonObject, parseList, parseSize, parseString, parseTimeout } from './parse-value.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { DEFAULT_MAX_FIELD_BYTES } from './upload-field-limit.js';
import { parseLayersOff, type SpeedLayer } from './speed-layers.js';
import { DEFAULT_WORKER_HEAP_LIMIT_MB, DEFAULT_WORKER_IDLE_TIMEOUT_MS } from './worker-threads.js';
import { isIP } from 'node:net';

/** The bundled example domain, resolved relative to this module (works from src/ and from dist/). */
export const DEFAULT_DOMAIN = 'scenarist:example';

const MiB = 1024 ** 2;
const DAY_MS = 86_400_000;

/**
 * An idle upload or view thread exits after this: long enough that the uploads of one form, or the
 * views of one page, reuse a thread (a thread's start loads the domain and opens a store connection,
 * a fifth of a second), short enough that a server between uploads holds none of their memory.
 */
const DEFAULT_DATA_THREAD_IDLE_MS = 5_000;
/**
 * The heap of one upload or view thread. An upload of `upload_limit` (256 MiB) parsed into rows and
 * its JSON form takes several times its size; 1536 MiB holds that for the default limit, and a
 * thread that needs more is stopped alone (413) instead of the server running out of memory.
 */
const DEFAULT_DATA_THREAD_HEAP_MB = 1536;
/** Below this a thread cannot load a domain and a store driver at all. */
const MIN_DATA_THREAD_HEAP_MB = 64;

/**
 * Merges sources, later ones winning (defaults < file < env < flags), and validates every value.
 * Throws a `SettingError` naming the first bad setting.
 */
export function resolveSettings(...sources: RawSettings[]): Settings {
  const raw = sources.reduce<RawSettings>((merged, source) => ({ ...merged, ...source }), {});
  const dataDir = resolvePath(raw.data_dir === undefined ? './data' : nonEmpty('data_dir', raw.data_dir));
  const host = raw.host === undefined ? '127.0.0.1' : nonEmpty('host', raw.host);
  let settings: Settings = {
    host,
    port: raw.port === undefined ? 8051 : parseInteger('port', raw.port, 1, 65535),
    prefix: raw.prefix === undefined ? '/api/v1' : parsePrefix(raw.prefix),
    corsOrigins: raw.cors_origins === undefined ? [] : parseOrigins(raw.cors_origins),
    allowSessionCreate:
      raw.allow_session_create === undefined ? true : parseBoolean('allow_session_create', raw.allow_session_create),
    forwardedAllowIps: raw.forwarded_allow_ips === undefined ? undefined : parseForwarded(raw.forwarded_allow_ips),
    title: raw.title === undefined ? 'Scenarist' : parseString('title', raw.title),
    autocreate: raw.autocreate === undefined ? false : parseBoolean('autocreate', raw.autocreate),
    defaultAlgo: raw.default_algo === undefined ? undefined : nonEmpty('default_algo', raw.default_algo),
    defaultAlgoParams:
      raw.default_algo_params === undefined ? {} : parseJsonObject('default_algo_params', raw.default_algo_params),
    autorun: raw.autorun === undefined ? false : parseBoolean('autorun', raw.autorun),
    dataDir,
    dropDir: raw.drop_dir === undefined ? resolvePath(dataDir, 'drops') : resolvePath(nonEmpty('drop_dir', raw.drop_dir)),
    databaseUrl: raw.database_url === undefined ? `sqlite:${resolvePath(dataDir, 'scenarist.db')}` : parseDatabaseUrl(raw.database_url),
    workers: raw.workers === undefined ? availableParallelism() : parseInteger('workers', raw.workers, 0, 1024),
    maxRunningPerSession: raw.max_running_per_session === undefined ? 1 : parseInteger('max_running_per_session', raw.max_running_per_session, 1, 1024),
    domain: raw.domain === undefined ? DEFAULT_DOMAIN : nonEmpty('domain', raw.domain),
    bodyLimitBytes: raw.body_limit === undefined ? 64 * MiB : parseSize('body_limit', raw.body_limit),
    uploadLimitBytes: raw.upload_limit === undefined ? 256 * MiB : parseSize('upload_limit', raw.upload_limit),
    uploadMaxFieldBytes: raw.upload_max_field === undefined ? DEFAULT_MAX_FIELD_BYTES : parseSize('upload_max_field', raw.upload_max_field),
    uploadTimeLimitMs: raw.upload_time_limit === undefined ? 120_000 : parseDuration('upload_time_limit', raw.upload_time_limit),
    uploadQueueWaitMs: raw.upload_queue_wait === undefined ? 10_000 : parseTimeout('upload_queue_wait', raw.upload_queue_wait, true),
    dataThreadIdleMs: raw.data_thread_idle === undefined ? DEFAULT_DATA_THREAD_IDLE_MS : parseTimeout('data_thread_idle', raw.data_thread_idle),
    dataThreadHeapMb: raw.data_thread_heap === undefined ? DEFAULT_DATA_THREAD_HEAP_MB : parseThreadHeap(raw.data_thread_heap),
    logLevel: raw.log_level === undefined ? 'info' : parseLogLevel(raw.log_level),
    // Reachable from other machines means tokens unless someone explicitly says otherwise.
    auth: raw.auth === undefined ? (isLoopbackHost(host) ? 'none' : 'token') : parseAuthMode(raw.auth),
    runTimeLimitMs: raw.run_time_limit === undefined ? 3_600_000 : parseDuration('run_time_limit', raw.run_time_limit),
    allowedHosts: parseAllowedHosts(raw.allowed_hosts, host),
    // Node's own default for a whole request; large uploads on slow links may need more.
    requestTimeoutMs: raw.request_timeout === undefined ? 300_000 : parseTimeout('request_timeout', raw.request_timeout, true),
    headersTimeoutMs: raw.headers_timeout === undefined ? 0 : parseTimeout('headers_timeout', raw.headers_timeout),
    keepAliveTimeoutMs: raw.keep_alive_timeout === undefined ? 72_000 : parseTimeout('keep_alive_timeout', raw.keep_alive_timeout),
    // 0: close at once. Behind a load balancer that probes /health/ready, its probe interval or more.
    shutdownDelayMs: raw.shutdown_delay === undefined ? 0 : parseTimeout('shutdown_delay', raw.shutdown_delay, true),
    webhookAllowNetworks: raw.webhook_allow_networks === undefined ? [] : parseNetworks('webhook_allow_networks', raw.webhook_allow_networks),
    maxExperimentSize: raw.max_experiment_size === undefined ? 10_000 : parseInteger('max_experiment_size', raw.max_experiment_size, 1, 1_000_000),
    externalKillGraceMs: raw.external_kill_grace === undefined ? 1_000 : parseDuration('external_kill_grace', raw.external_kill_grace),
    externalStdoutLimitBytes: raw.external_stdout_limit === undefined ? 256 * MiB : parseSize('external_stdout_limit', raw.external_stdout_limit),
    externalStderrLineLimitBytes: raw.external_stderr_line_limit === undefined ? 64 * 1024 : parseSize('external_stderr_line_limit', raw.external_stderr_line_limit),
    externalStderrRate: raw.external_stderr_rate === undefined ? 1_000 : parseInteger('external_stderr_rate', raw.external_stderr_rate, 1, 1_000_000),
    externalMemoryLimitBytes: raw.external_memory_limit === undefined ? 4 * 1024 * MiB : parseSizeOrNone('external_memory_limit', raw.external_memory_limit),
    auditRetentionMs: raw.audit_retention === undefined ? 365 * DAY_MS : parseDays('audit_retention', raw.audit_retention),
    datasetVersionsKept: raw.dataset_versions_kept === undefined || raw.dataset_versions_kept === 'all' ? 'all' : parseInteger('dataset_versions_kept', raw.dataset_versions_kept, 1, 1_000_000),
    workerHeapLimitMb: raw.worker_heap_limit === undefined ? DEFAULT_WORKER_HEAP_LIMIT_MB : parseHeapLimit(raw.worker_heap_limit),
    workerIdleTimeoutMs: raw.worker_idle_timeout === undefined ? DEFAULT_WORKER_IDLE_TIMEOUT_MS : parseDuration('worker_idle_timeout', raw.worker_idle_timeout),
    speedLayersOff: parseSpeedLayersOff(raw.bench_layers_off),
    benchAuditOff: raw.bench_audit_off === undefined ? false : parseBoolean('bench_audit_off', raw.bench_audit_off),
  };
  if (settings.headersTimeoutMs === 0) {
    // Default: 30 s, but never longer than the request timeout (Node requires headers <= request).
    settings = { ...settings, headersTimeoutMs: settings.requestTimeoutMs > 0 ? Math.min(30_000, settings.requestTimeoutMs) : 30_000 };
  }
  if (settings.requestTimeoutMs > 0 && settings.headersTimeoutMs > settings.requestTimeoutMs) {
    // Node refuses a headers timeout longer than the request timeout; say so at start-up, by name.
    throw new SettingError('headers_timeout', `must not be longer than request_timeout (${settings.requestTimeoutMs} ms), got ${settings.headersTimeoutMs} ms`);
  }
  if (settings.autocreate && settings.defaultAlgo === undefined) {
    throw new SettingError('autocreate', 'autocreate needs default_algo to name the algorithm of spawned scenarios');
  }
  return Object.freeze(settings);
}

/** A run thread's heap limit: a size, in whole MiB, of at least 16 MiB (V8 needs some room to start). */
function parseHeapLimit(raw: unknown): number {
  const mb = Math.floor(parseSize('worker_heap_limit', raw) / MiB);
  if (mb < 16) throw new SettingError('worker_heap_limit', `must be at least 16MiB, got ${String(raw)}`);
  return mb;
}

function parseSpeedLayersOff(raw: unknown): ReadonlySet<SpeedLayer> {
  try {
    return parseLayersOff(raw === undefined ? undefined : parseList('bench_layers_off', raw).join(','));
  } catch (err) {
    if (err instanceof SettingError) throw err;
    throw new SettingError('bench_layers_off', (err as Error).message);
  }
}

/** A size, or `0`/`none` for no limit at all. */
function parseSizeOrNone(name: string, raw: unknown): number {
  if (raw === 0 || raw === '0' || raw === 'none') return 0;
  return parseSize(name, raw);
}

/** `data_thread_heap`: a size, in whole MiB, at least MIN_DATA_THREAD_HEAP_MB. */
function parseThreadHeap(raw: unknown): number {
  const mb = Math.floor(parseSize('data_thread_heap', raw) / MiB);
  if (mb < MIN_DATA_THREAD_HEAP_MB) throw new SettingError('data_thread_heap', `must be at least ${MIN_DATA_THREAD_HEAP_MB}MiB, got ${String(raw)}`);
  return mb;
}

function nonEmpty(name: string, raw: unknown): string {
  const value = parseString(name, raw).trim();
  if (value === '') throw new SettingError(name, 'must not be empty');
  return value;
}

function parsePrefix(raw: unknown): string {
  const prefix = parseString('prefix', raw).trim();
  if (!prefix.startsWith('/')) throw new SettingError('prefix', `must start with "/", got "${prefix}"`);
  if (/[\s?#%]/.test(prefix) || prefix.includes('//')) {
    throw new SettingError('prefix', `must be a plain path such as /api/v1, got "${prefix}"`);
  }
  // "/" means no prefix; a trailing slash is dropped so "/api/" and "/api" behave the same.
  return prefix === '/' ? '' : prefix.replace(/\/+$/, '');
}

function parseOrigins(raw: unknown): string[] {
  const origins = parseList('cors_origins', raw);
  for (const origin of origins) {
    if (origin === '') throw new SettingError('cors_origins', 'an origin must not be empty');
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new SettingError('cors_origins', `"${origin}" is not an origin such as https://app.example.com or *`);
    }
  }
  return origins;
}

function parseForwarded(raw: unknown): '*' | string[] {
  if (raw === '*') return '*';
  const ips = parseList('forwarded_allow_ips', raw);
  if (ips.length === 1 && ips[0] === '*') return '*';
  for (const ip of ips) {
    if (isIP(ip) === 0) throw new SettingError('forwarded_allow_ips', `"${ip}" is not an IP address (or use *)`);
  }
  return ips;
}

function parseNetworks(name: string, raw: unknown): string[] {
  const networks = parseList(name, raw).filter((n) => n !== '');
  // The webhook address policy reads these with ipaddr.js: a range it reads is valid.
  const bad = networks.find((n) => !ipaddr.isValidCIDR(n));
  if (bad !== undefined) throw new SettingError(name, `"${bad}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`);
  return networks;
}

function parseDatabaseUrl(raw: unknown): string {
  const url = nonEmpty('database_url', raw);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return url;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new SettingError('database_url', 'sqlite: needs a file path, e.g. sqlite:./data/scenarist.db');
    return `sqlite:${resolvePath(path)}`;
  }
  throw new SettingError('database_url', `must start with postgres://, postgresql:// or sqlite:, got "${url}"`);
}

function parseAuthMode(raw: unknown): AuthMode {
  const mode = parseString('auth', raw).trim().toLowerCase();
  if (!(AUTH_MODES as readonly string[]).includes(mode)) {
    throw new SettingError('auth', `must be one of ${AUTH_MODES.join(', ')}, got "${mode}"`);
  }
  return mode as AuthMode;
}

function parseLogLevel(raw: unknown): LogLevel {
  const level = parseString('log_level', raw).trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new SettingError('log_level', `must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  }
  return level as LogLevel;
}
