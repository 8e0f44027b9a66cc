import { SettingError } from '../config/setting-error.js';
import type { RawSettings, SettingName } from '../config/settings.js';

/** A command-line flag and the setting it sets. */
export interface FlagSpec {
  readonly flag: string;
  readonly setting: SettingName;
  readonly help: string;
  /** May be given several times (values collect into a list). */
  readonly repeatable?: boolean;
  /** A boolean flag may stand alone (`--autorun`) or take true/false. */
  readonly boolean?: boolean;
}

export const SERVE_FLAGS: readonly FlagSpec[] = [
  { flag: 'host', setting: 'host', help: 'bind address (default 127.0.0.1)' },
  { flag: 'port', setting: 'port', help: 'bind port (default 8051)' },
  { flag: 'prefix', setting: 'prefix', help: 'URL prefix of every route (default /api/v1)' },
  { flag: 'data-dir', setting: 'data_dir', help: 'directory of the embedded SQLite file (default ./data)' },
  { flag: 'database-url', setting: 'database_url', help: 'sqlite:<file> or postgres://... (default sqlite in data-dir)' },
  { flag: 'title', setting: 'title', help: 'title returned by /health (default Scenarist)' },
  { flag: 'cors-origin', setting: 'cors_origins', help: 'allowed cross-origin origin; repeat for several', repeatable: true },
  { flag: 'allow-session-create', setting: 'allow_session_create', help: 'true|false (default true)', boolean: true },
  { flag: 'forwarded-allow-ips', setting: 'forwarded_allow_ips', help: '* or comma-separated proxy IPs trusted for X-Forwarded-*' },
  { flag: 'autocreate', setting: 'autocreate', help: 'spawn "<key> [auto]" scenarios for new datasets', boolean: true },
  { flag: 'default-algo', setting: 'default_algo', help: 'algorithm of auto-created scenarios' },
  { flag: 'default-algo-params', setting: 'default_algo_params', help: 'JSON object of its parameter values' },
  { flag: 'autorun', setting: 'autorun', help: 'queue scenarios as soon as they are created', boolean: true },
  { flag: 'domain', setting: 'domain', help: 'domain module (path or package; default: bundled warehouse example)' },
  { flag: 'workers', setting: 'workers', help: 'algorithm worker threads (default: CPU cores; 0 = API only, for PostgreSQL API nodes)' },
  { flag: 'body-limit', setting: 'body_limit', help: 'largest JSON request body, e.g. 64MiB' },
  { flag: 'upload-limit', setting: 'upload_limit', help: 'largest ETL upload, e.g. 256MiB' },
  { flag: 'upload-max-field', setting: 'upload_max_field', help: 'longest row, cell, record or string in an upload, e.g. 4MiB' },
  { flag: 'upload-time-limit', setting: 'upload_time_limit', help: 'longest work on one upload before it is stopped, e.g. 120s' },
  { flag: 'upload-queue-wait', setting: 'upload_queue_wait', help: 'longest wait for a free upload thread before 503, e.g. 1s (0 = none)' },
  { flag: 'run-time-limit', setting: 'run_time_limit', help: 'longest run before it is stopped as FAILED, e.g. 1h, 30m (default 1h)' },
  { flag: 'allowed-host', setting: 'allowed_hosts', help: 'Host header value accepted (any port); repeat; * for any (default: loopback names when bound to loopback, else *)', repeatable: true },
  { flag: 'request-timeout', setting: 'request_timeout', help: 'longest time to receive a whole request, e.g. 300s (0 = none)' },
  { flag: 'headers-timeout', setting: 'headers_timeout', help: 'longest time to receive request headers, e.g. 30s' },
  { flag: 'keep-alive-timeout', setting: 'keep_alive_timeout', help: 'idle keep-alive connection lifetime, e.g. 72s' },
  { flag: 'shutdown-delay', setting: 'shutdown_delay', help: 'after SIGTERM, serve this long with /health/ready at 503 before closing, e.g. 5s (default 0)' },
  { flag: 'webhook-allow-network', setting: 'webhook_allow_networks', help: 'CIDR range webhooks may reach although internal, e.g. 10.0.0.0/8; repeat', repeatable: true },
  { flag: 'max-experiment-size', setting: 'max_experiment_size', help: 'most scenarios one experiment may create (default 10000)' },
  { flag: 'log-level', setting: 'log_level', help: 'fatal|error|warn|info|debug|trace|silent (default info)' },
  { flag: 'auth', setting: 'auth', help: 'token|none (default none on a loopback host, token otherwise)' },
];

export interface ParsedFlags {
  readonly settings: RawSettings;
  readonly config: string | undefined;
  readonly help: boolean;
  readonly extra: Readonly<Record<string, string>>;
}

/**
 * Parses `--flag value`, `--flag=value` and bare boolean flags. `extraFlags` are command-specific
 * (e.g. `--concurrency` of `worker`), returned as strings.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[], extraFlags: readonly string[] = []): ParsedFlags {
  const settings: RawSettings = {};
  const extra: Record<string, string> = {};
  let config: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new SettingError(arg, 'unexpected argument (flags start with --)');
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const spec = specs.find((s) => s.flag === name);
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined) throw new SettingError(`--${name}`, 'needs a value');
      i++;
      return next;
    };
    if (name === 'config') config = takeValue();
    else if (extraFlags.includes(name)) extra[name] = takeValue();
    else if (!spec) throw new SettingError(`--${name}`, 'unknown flag (see --help)');
    // A bare boolean flag means true; a following non-flag word is its value (validated later).
    else if (spec.boolean && inline === undefined && (argv[i + 1] ?? '--').startsWith('--')) settings[spec.setting] = 'true';
    else if (spec.repeatable) settings[spec.setting] = [...((settings[spec.setting] as string[] | undefined) ?? []), takeValue()];
    else settings[spec.setting] = takeValue();
  }
  return { settings, config, help, extra };
}

export function flagsHelp(specs: readonly FlagSpec[]): string {
  const width = Math.max(...specs.map((s) => s.flag.length)) + 4;
  return specs.map((s) => `  --${s.flag.padEnd(width)}${s.help}  [env SCENARIST_${s.setting.toUpperCase()}]`).join('\n');
}
