import { issueToken } from '../auth/issue-token.js';
import { serviceDraft } from '../audit/audit-service.js';
import { AuditScope, runAuditedWork } from '../model/audit/audit-scope.js';
import { isScope, SCOPES } from '../model/token-scopes.js';
import { TokensRepository, type ApiTokenRecord } from '../store/tokens-repository.js';
import { SettingError } from '../config/setting-error.js';
import type { Settings } from '../config/settings.js';
import type { SessionRecord } from '../store/sessions-repository.js';
import { openStore, type Store } from '../store/store.js';
import { flagsHelp, parseFlags, SERVE_FLAGS, type CommandDeclaration, type ParsedFlags } from './flags.js';

export const TOKEN_COMMAND: CommandDeclaration = {
  settings: SERVE_FLAGS.filter((f) => ['data-dir', 'database-url', 'log-level'].includes(f.flag)),
  own: [
    { flag: 'scope', value: 'SCOPE', help: 'create: read|run|admin|metrics' },
    { flag: 'session', value: 'NAME_OR_ID', help: 'create: limit the token to this session (display name or id)' },
    { flag: 'name', value: 'LABEL', help: 'create: a label shown by list' },
    { flag: 'json', boolean: true, help: 'list: print JSON' },
  ],
  positionals: true,
};
const CREATE_ONLY = ['scope', 'session', 'name'];

const USAGE = `Usage: scenarist token <create|list|revoke> [flags]

  token create --scope read|run|admin|metrics [--session NAME_OR_ID] [--name LABEL]
                 prints a new API token on stdout; it is shown only this once
  token list [--json]
                 every token (never the secret): id, scope, session, name, created, last used, revoked
  token revoke ID
                 the token stops working within seconds

Flags:
${flagsHelp(TOKEN_COMMAND.settings, TOKEN_COMMAND.own)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `scenarist token ...`: manages API tokens directly in the store (no running server needed). */
export async function tokenCommand(argv: readonly string[], settingsOf: (flags: ParsedFlags) => Settings): Promise<number> {
  const [action, ...rest] = argv;
  const flags = parseFlags(rest, TOKEN_COMMAND);
  const positional = flags.positionals;
  const json = flags.extra.json === 'true';
  const askedForHelp = flags.help || ['help', '--help', '-h'].includes(action ?? '');
  if (askedForHelp || action === undefined || !['create', 'list', 'revoke'].includes(action)) {
    if (askedForHelp) console.log(USAGE);
    else console.error(`scenarist: ${action === undefined ? 'token needs an action' : `unknown token action "${action}"`}\n\n${USAGE}`);
    return askedForHelp ? 0 : 1;
  }
  if (json && action !== 'list') throw new SettingError('--json', 'only "token list" takes --json');
  const misplaced = CREATE_ONLY.find((flag) => action !== 'create' && flags.extra[flag] !== undefined);
  if (misplaced !== undefined) throw new SettingError(`--${misplaced}`, `only "token create" takes --${misplaced}`);
  const expected = action === 'revoke' ? 1 : 0;
  if (positional.length !== expected) {
    throw new SettingError(positional[expected] ?? 'ID', action === 'revoke' ? 'token revoke needs exactly one token id' : 'unexpected argument');
  }
  const settings = settingsOf(flags);
  // Not the store's owner: tokens are rows that running servers read (revocation reaches them within
  // seconds), not run state kept in memory, so tokens are managed beside a running server.
  const store = await openStore(settings.databaseUrl);
  try {
    const tokens = new TokensRepository(store.db);
    if (action === 'list') return await list(store, tokens, json);
    // Token changes are writes like any other: recorded in the audit trail with the change itself.
    if (action === 'create') return await runAuditedWork(new AuditScope(serviceDraft('token.create', 'cli')), () => create(store, tokens, flags.extra));
    const id = positional[0]!;
    return await runAuditedWork(new AuditScope({ ...serviceDraft('token.revoke', 'cli'), targets: { token: id } }), () => revoke(tokens, id));
  } finally {
    await store.close();
  }
}

async function create(store: Store, tokens: TokensRepository, extra: Readonly<Record<string, string>>): Promise<number> {
  const scope = extra.scope;
  if (scope === undefined) throw new SettingError('--scope', `is required: one of ${SCOPES.join(', ')}`);
  if (!isScope(scope)) throw new SettingError('--scope', `must be one of ${SCOPES.join(', ')}, got "${scope}"`);
  const name = extra.name?.trim();
  if (name !== undefined && (name === '' || name.length > 200 || /\p{Cc}/u.test(name))) {
    throw new SettingError('--name', 'must be 1 to 200 characters without control characters');
  }
  let session: SessionRecord | undefined;
  if (extra.session !== undefined) {
    session = await findSession(store, extra.session);
    if (!session) throw new Error(`no session with the display name or id "${extra.session}"`);
  }
  const { token, record } = await issueToken(tokens, { scope, sessionId: session?.id ?? null, name: name ?? null });
  // The secret alone on stdout, so `TOKEN=$(scenarist token create ...)` works; the rest on stderr.
  console.log(token);
  const where = session ? `session ${session.displayName} (${session.id})` : 'every session';
  console.error(`created token ${record.id}: scope ${scope}, ${where}. It is shown only this once.`);
  return 0;
}

async function list(store: Store, tokens: TokensRepository, json: boolean): Promise<number> {
  const records = await tokens.list();
  const names = new Map((await store.sessions.list()).map((s) => [s.id, s.displayName]));
  const rows = records.map((r) => describe(r, names));
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (rows.length === 0) {
    console.log('no API tokens (create one with: scenarist token create --scope read|run|admin|metrics)');
    return 0;
  }
  const table = [
    ['ID', 'SCOPE', 'SESSION', 'NAME', 'CREATED', 'LAST USED', 'REVOKED'],
    ...rows.map((r) => [r.id, r.scope, r.session ?? '*', r.name ?? '-', r.created_at, r.last_used_at ?? '-', r.revoked_at ?? '-']),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  return 0;
}

async function revoke(tokens: TokensRepository, id: string): Promise<number> {
  if (await tokens.revoke(id)) {
    console.log(`revoked token ${id} (servers stop accepting it within a few seconds)`);
    return 0;
  }
  const existing = await tokens.findById(id);
  if (existing) {
    console.log(`token ${id} was already revoked at ${existing.revokedAt}`);
    return 0;
  }
  throw new Error(`no token with id "${id}" (see scenarist token list)`);
}

function describe(r: ApiTokenRecord, sessionNames: ReadonlyMap<string, string>) {
  return {
    id: r.id,
    name: r.name,
    scope: r.scope,
    session_id: r.sessionId,
    session: r.sessionId === null ? null : (sessionNames.get(r.sessionId) ?? r.sessionId),
    created_at: r.createdAt,
    last_used_at: r.lastUsedAt,
    revoked_at: r.revokedAt,
  };
}

/** A session by id (any letter case) or display name, like `{sid}` in routes. */
async function findSession(store: Store, ref: string): Promise<SessionRecord | undefined> {
  return (UUID.test(ref) ? await store.sessions.findById(ref.toLowerCase()) : undefined) ?? (await store.sessions.findByName(ref));
}
