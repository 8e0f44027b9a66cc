import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Settings } from '../config/settings.js';
import { flagsHelp, parseFlags, SERVE_FLAGS, type CommandDeclaration, type ParsedFlags } from './flags.js';

export const GATE_COMMAND: CommandDeclaration = {
  settings: SERVE_FLAGS.filter((f) => ['data-dir', 'database-url', 'domain', 'workers', 'prefix', 'log-level'].includes(f.flag)),
  own: [
    { flag: 'url', value: 'URL', help: 'API base of a running service, prefix included (http://127.0.0.1:8051/api/v1); without it a temporary local service is started over --data-dir / --database-url' },
    { flag: 'token', value: 'TOKEN', help: 'API token for --url (default: $SCENARIST_TOKEN)' },
    { flag: 'json', boolean: true, help: 'print the finished gate as JSON instead of the table' },
  ],
  positionals: true,
};

/** Exit codes: the CI contract of `scenarist gate` (docs/api/gates.md). */
export const GATE_EXIT = { pass: 0, fail: 1, inconclusive: 2, badInput: 3, serviceError: 4 } as const;

const USAGE = `Usage: scenarist gate <file.json> [flags]

  Creates the acceptance gate described by <file.json> (the body of POST /sessions/{sid}/gates plus
  "session": a session name or id, default "main"), waits for its runs, prints the verdict table and
  exits 0 on pass, 1 on fail, 2 when inconclusive, 3 on bad input (unreadable file, or a request the
  service refuses with 4xx), 4 when the service cannot be reached or answers with an error of its own.

Flags:
${flagsHelp(GATE_COMMAND.settings, GATE_COMMAND.own)}`;

/** How often the gate is read while its runs go on. */
const POLL_MS = 500;

interface KpiLine {
  kpi: string;
  verdict: string;
  mean_difference: number | null;
  median_difference: number | null;
  ci: [number, number] | null;
  p_value: number | null;
  n: number;
  test: string | null;
}
interface GateReply {
  id: string;
  name: string;
  status: 'running' | 'complete';
  progress: number;
  verdict: 'pass' | 'fail' | 'inconclusive' | null;
  kpis: KpiLine[] | null;
}

/** A refusal by the service (4xx) or a failure of it (anything else). */
class GateError extends Error {
  constructor(
    message: string,
    readonly exit: number,
  ) {
    super(message);
  }
}

async function call<T>(base: string, token: string | undefined, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new GateError(`cannot reach ${base}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`, GATE_EXIT.serviceError);
  }
  const text = await response.text();
  const parsed = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })();
  if (response.ok) return parsed as T;
  const error = (parsed ?? {}) as { code?: string; detail?: string; errors?: { path: string; message: string }[] };
  const listed = (error.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
  const message = `${response.status} ${error.code ?? ''}: ${error.detail ?? text.slice(0, 500)}${listed}`;
  throw new GateError(message, response.status >= 400 && response.status < 500 ? GATE_EXIT.badInput : GATE_EXIT.serviceError);
}

const num = (value: number | null) => (value === null ? '-' : Number.isInteger(value) ? String(value) : value.toPrecision(4));

/** The verdict table: one line per KPI, aligned, then the overall verdict. */
export function verdictTable(gate: GateReply): string {
  const header = ['KPI', 'verdict', 'mean diff', 'median diff', 'CI', 'p', 'n', 'test'];
  const rows = (gate.kpis ?? []).map((k) => [
    k.kpi,
    k.verdict,
    num(k.mean_difference),
    num(k.median_difference),
    k.ci === null ? '-' : `[${num(k.ci[0])}, ${num(k.ci[1])}]`,
    k.p_value === null ? '-' : k.p_value.toPrecision(3),
    String(k.n),
    k.test ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), ...rows.map(line), '', `gate "${gate.name}": ${gate.verdict}`].join('\n');
}

async function readGateFile(path: string): Promise<{ session: string; body: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new GateError(`cannot read ${path}: ${(err as Error).message}`, GATE_EXIT.badInput);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new GateError(`${path} is not JSON: ${(err as Error).message}`, GATE_EXIT.badInput);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GateError(`${path} must hold a JSON object (the gate's body and its "session")`, GATE_EXIT.badInput);
  const { session = 'main', ...body } = parsed as Record<string, unknown>;
  if (typeof session !== 'string' || session === '') throw new GateError(`${path}: "session" must be a session name or id`, GATE_EXIT.badInput);
  return { session, body };
}

/** Creates the gate on the service at `base`, waits for its verdict and prints it; resolves to the exit code. */
async function runGate(base: string, token: string | undefined, file: { session: string; body: Record<string, unknown> }, json: boolean): Promise<number> {
  const sessionPath = `/sessions/${encodeURIComponent(file.session)}/gates`;
  const created = await call<GateReply>(base, token, 'POST', sessionPath, file.body);
  let gate: GateReply;
  let shown = -1;
  for (;;) {
    gate = await call<GateReply>(base, token, 'GET', `${sessionPath}/${created.id}`);
    if (gate.status === 'complete') break;
    const percent = Math.floor(gate.progress * 100);
    if (percent !== shown) console.error(`gate "${gate.name}": ${percent}% of its runs done`);
    shown = percent;
    await sleep(POLL_MS);
  }
  console.log(json ? JSON.stringify(gate, null, 2) : verdictTable(gate));
  return GATE_EXIT[gate.verdict ?? 'inconclusive'];
}

/** A service of this process over the store the settings name, on a free loopback port, for one gate. */
async function withLocalService<T>(settings: Settings, work: (base: string) => Promise<T>): Promise<T> {
  const { assemble } = await import('../runtime/assemble.js');
  const { buildApp } = await import('../http/app.js');
  const { createLogger } = await import('./logger.js');
  const log = createLogger(settings);
  const runtime = await assemble(settings, log);
  try {
    const app = await buildApp(runtime.services, { logger: log });
    try {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      return await work(`${address}${settings.prefix}`);
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
  }
}

/** `scenarist gate <file.json>`: an acceptance gate from CI (exit codes in `GATE_EXIT`). */
export async function gateCommand(argv: readonly string[], settingsOf: (flags: ParsedFlags) => Settings): Promise<number> {
  let flags: ParsedFlags;
  try {
    flags = parseFlags(argv, GATE_COMMAND);
  } catch (err) {
    console.error(`scenarist: ${(err as Error).message}\n\n${USAGE}`);
    return GATE_EXIT.badInput;
  }
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.positionals.length !== 1) {
    console.error(`scenarist: gate takes one file\n\n${USAGE}`);
    return GATE_EXIT.badInput;
  }
  try {
    const file = await readGateFile(flags.positionals[0]!);
    const json = flags.extra.json === 'true';
    const url = flags.extra.url;
    if (url !== undefined) return await runGate(url.replace(/\/+$/, ''), flags.extra.token ?? process.env.SCENARIST_TOKEN, file, json);
    const settings = settingsOf(flags);
    // Quiet unless asked: stdout carries the verdict table.
    const quiet = flags.settings.log_level === undefined ? { ...settings, logLevel: 'warn' as const } : settings;
    return await withLocalService({ ...quiet, host: '127.0.0.1', port: 0 }, (base) => runGate(base, undefined, file, json));
  } catch (err) {
    if (err instanceof GateError) {
      console.error(`scenarist gate: ${err.message}`);
      return err.exit;
    }
    console.error(`scenarist gate: ${err instanceof Error ? err.message : String(err)}`);
    return GATE_EXIT.serviceError;
  }
}
