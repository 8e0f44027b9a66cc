import { parseArgs, type ParseArgsConfig } from 'node:util';
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
  { flag: 'drop-dir', setting: 'drop_dir', help: "schedules' data drops: <drop-dir>/<session>/<dataset>/ (default <data-dir>/drops)" },
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
  { flag: 'max-running-per-session', setting: 'max_running_per_session', help: "scenarios of one session running at once (default 1, the spec's rule; more spreads a sweep over the workers)" },
  { flag: 'body-limit', setting: 'body_limit', help: 'largest JSON request body, e.g. 64MiB' },
  { flag: 'upload-limit', setting: 'upload_limit', help: 'largest ETL upload, e.g. 256MiB' },
  { flag: 'upload-max-field', setting: 'upload_max_field', help: 'longest row, cell, record or string in an upload, e.g. 4MiB' },
  { flag: 'upload-time-limit', setting: 'upload_time_limit', help: 'longest work on one upload (or view) before it is stopped, e.g. 120s' },
  { flag: 'upload-queue-wait', setting: 'upload_queue_wait', help: 'longest wait for a free upload (or view) thread before 503, default 10s (0 = none)' },
  { flag: 'data-thread-idle', setting: 'data_thread_idle', help: 'how long an idle upload or view thread stays before it exits, default 5s' },
  { flag: 'data-thread-heap', setting: 'data_thread_heap', help: 'heap one upload or view thread may use, default 1536MiB (at least 64MiB)' },
  { flag: 'run-time-limit', setting: 'run_time_limit', help: 'longest run before it is stopped as FAILED, e.g. 1h, 30m (default 1h)' },
  { flag: 'allowed-host', setting: 'allowed_hosts', help: 'Host header value accepted (any port); repeat; * for any (default: loopback names when bound to loopback, else *)', repeatable: true },
  { flag: 'request-timeout', setting: 'request_timeout', help: 'longest time to receive a whole request, e.g. 300s (0 = none)' },
  { flag: 'headers-timeout', setting: 'headers_timeout', help: 'longest time to receive request headers, e.g. 30s' },
  { flag: 'keep-alive-timeout', setting: 'keep_alive_timeout', help: 'idle keep-alive connection lifetime, e.g. 72s' },
  { flag: 'shutdown-delay', setting: 'shutdown_delay', help: 'after SIGTERM, serve this long with /health/ready at 503 before closing, e.g. 5s (default 0)' },
  { flag: 'webhook-allow-network', setting: 'webhook_allow_networks', help: 'CIDR range webhooks may reach although internal, e.g. 10.0.0.0/8; repeat', repeatable: true },
  { flag: 'max-experiment-size', setting: 'max_experiment_size', help: 'most scenarios one experiment may create (default 10000)' },
  { flag: 'external-kill-grace', setting: 'external_kill_grace', help: "how long an external algorithm's processes have after SIGTERM before SIGKILL (default 1s)" },
  { flag: 'external-stdout-limit', setting: 'external_stdout_limit', help: 'most bytes an external algorithm may write on stdout (default 256MiB)' },
  { flag: 'external-stderr-line-limit', setting: 'external_stderr_line_limit', help: 'longest stderr line of an external algorithm (default 64KiB)' },
  { flag: 'external-stderr-rate', setting: 'external_stderr_rate', help: 'most stderr lines per second of an external algorithm (default 1000)' },
  { flag: 'external-memory-limit', setting: 'external_memory_limit', help: 'address-space limit of an external algorithm, e.g. 4GiB, or none (default 4GiB)' },
  { flag: 'audit-retention', setting: 'audit_retention', help: 'how long audit entries are kept: days (365), or 90d, 12h (default 365)' },
  { flag: 'dataset-versions-kept', setting: 'dataset_versions_kept', help: 'versions each dataset key keeps, never pruning one in use, or all (default all)' },
  { flag: 'worker-heap-limit', setting: 'worker_heap_limit', help: "each run thread's heap limit, e.g. 1GiB (default 1GiB; past it the run FAILS)" },
  { flag: 'worker-idle-timeout', setting: 'worker_idle_timeout', help: 'run threads stop after this long without a run, e.g. 60s (default 60s)' },
  { flag: 'bench-layers-off', setting: 'bench_layers_off', help: 'benchmarks only: comma-separated speed layers to switch off (answers stay the same, only slower)' },
  { flag: 'bench-audit-off', setting: 'bench_audit_off', help: 'benchmarks only: true to record nothing in the audit trail (never in a deployment)' },
  { flag: 'log-level', setting: 'log_level', help: 'fatal|error|warn|info|debug|trace|silent (default info)' },
  { flag: 'auth', setting: 'auth', help: 'token|none (default none on a loopback host, token otherwise)' },
];

/** A flag of one command that is not a setting (e.g. `--concurrency` of `worker`). */
export interface CommandFlag {
  readonly flag: string;
  readonly help: string;
  /** The value's name in `--help` (default VALUE). */
  readonly value?: string;
  /** A switch: present or absent, never takes a value (returned as 'true'). */
  readonly boolean?: boolean;
}

/** Everything one command accepts: its settings' flags, its own flags and whether it takes positionals. */
export interface CommandDeclaration {
  readonly settings: readonly FlagSpec[];
  readonly own?: readonly CommandFlag[];
  readonly positionals?: boolean;
}

export interface ParsedFlags {
  readonly settings: RawSettings;
  readonly config: string | undefined;
  readonly help: boolean;
  readonly extra: Readonly<Record<string, string>>;
  readonly positionals: readonly string[];
}

/**
 * Parses `--flag value`, `--flag=value` and bare boolean flags with node:util `parseArgs`. Its tokens
 * are checked here rather than in its strict mode so that a boolean setting may also take a value
 * (`--autorun false`) and every mistake is a SettingError naming the flag.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[] | CommandDeclaration): ParsedFlags {
  const command: CommandDeclaration = isDeclaration(specs) ? specs : { settings: specs };
  const own = command.own ?? [];
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' }, config: { type: 'string' } };
  for (const spec of command.settings) options[spec.flag] = { type: spec.boolean ? 'boolean' : 'string' };
  for (const flag of own) options[flag.flag] = { type: flag.boolean ? 'boolean' : 'string' };
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });

  const settings: RawSettings = {};
  const extra: Record<string, string> = {};
  const positionals: string[] = [];
  let config: string | undefined;
  let help = false;
  const valueTaken = new Set<number>();
  tokens.forEach((token, i) => {
    if (token.kind === 'option-terminator') return;
    if (token.kind === 'positional') {
      if (valueTaken.has(token.index)) return;
      if (!command.positionals) throw new SettingError(token.value, 'unexpected argument (flags start with --)');
      positionals.push(token.value);
      return;
    }
    const needValue = (): string => {
      if (token.value === undefined) throw new SettingError(token.rawName, 'needs a value');
      return token.value;
    };
    const spec = command.settings.find((s) => s.flag === token.name);
    const ownFlag = own.find((f) => f.flag === token.name);
    if (token.name === 'help') help = true;
    else if (token.name === 'config') config = needValue();
    else if (ownFlag) extra[ownFlag.flag] = ownFlag.boolean ? switchValue(token) : needValue();
    else if (!spec) throw new SettingError(token.rawName, 'unknown flag (see --help)');
    else if (spec.boolean) {
      // A bare boolean flag means true; a word right after it is its value (validated later).
      const next = tokens[i + 1];
      if (token.value !== undefined) settings[spec.setting] = token.value;
      else if (next?.kind === 'positional' && next.index === token.index + 1) {
        valueTaken.add(next.index);
        settings[spec.setting] = next.value;
      } else settings[spec.setting] = 'true';
    } else if (spec.repeatable) settings[spec.setting] = [...((settings[spec.setting] as string[] | undefined) ?? []), needValue()];
    else settings[spec.setting] = needValue();
  });
  return { settings, config, help, extra, positionals };
}

function switchValue(token: { rawName: string; value?: string | undefined }): string {
  if (token.value !== undefined) throw new SettingError(token.rawName, 'takes no value');
  return 'true';
}

function isDeclaration(specs: readonly FlagSpec[] | CommandDeclaration): specs is CommandDeclaration {
  return !Array.isArray(specs);
}

/** The `--help` lines of a command: `--config`, each setting's flag, then the command's own flags. */
export function flagsHelp(specs: readonly FlagSpec[], own: readonly CommandFlag[] = []): string {
  const rows: Array<readonly [string, string]> = [
    ['config FILE', 'JSON file of settings (snake_case keys)  [env SCENARIST_CONFIG]'],
    ...specs.map((s) => [s.flag, `${s.help}  [env SCENARIST_${s.setting.toUpperCase()}]`] as const),
    ...own.map((f) => [f.boolean ? f.flag : `${f.flag} ${f.value ?? 'VALUE'}`, f.help] as const),
  ];
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 4;
  return rows.map(([flag, help]) => `  --${flag.padEnd(width)}${help}`).join('\n');
}
