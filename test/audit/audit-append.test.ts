import { CompiledQuery, type CompiledQuery as Query, type DatabaseConnection } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AuditService } from '../../src/audit/audit-service.js';
import { auditHash } from '../../src/model/audit/audit-hash.js';
import type { AuditDraft } from '../../src/model/audit/audit-scope.js';
import { appendAuditEntry } from '../../src/store/audit/audit-append.js';
import type { AuditRow } from '../../src/store/audit/audit-repository.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const draft = (who: string, extra: Partial<AuditDraft> = {}): AuditDraft => ({
  action: 'session.create',
  tokenId: null,
  who,
  address: null,
  sessionId: null,
  targets: {},
  status: 201,
  ...extra,
});

/** What the chain's hash covers, read back from a stored row. */
const contentOf = (row: AuditRow) => ({
  at: row.at,
  tokenId: row.token_id,
  who: row.who,
  address: row.address,
  action: row.action,
  sessionId: row.session_id,
  targets: row.targets,
  status: row.status,
});

/** The statements `connection` is asked to run, in order. */
function counting(connection: DatabaseConnection, statements: string[]): DatabaseConnection {
  return {
    executeQuery: (query: Query) => {
      statements.push(query.sql);
      return connection.executeQuery(query);
    },
    streamQuery: (query: Query, chunkSize?: number) => connection.streamQuery(query, chunkSize),
  };
}

describe.each(DIALECTS)('appending an audit entry on %s', (dialect) => {
  const store = useTestStore(dialect);
  const verify = () => new AuditService(store().audit, 365 * 86_400_000).verify();

  it('is one statement, and moves the head to the entry', async () => {
    const before = await store().audit.head();
    const statements: string[] = [];
    await store()
      .db.getExecutor()
      .provideConnection(async (connection) => {
        await connection.executeQuery(CompiledQuery.raw('begin'));
        await appendAuditEntry(counting(connection, statements), dialect, draft('counted'));
        await connection.executeQuery(CompiledQuery.raw('commit'));
      });
    expect(statements).toHaveLength(1);
    const [entry] = await store().audit.page({ limit: 1 });
    expect(entry).toMatchObject({ seq: before.seq + 1, who: 'counted', prev_hash: before.hash });
    expect(await store().audit.head()).toMatchObject({ seq: before.seq + 1, hash: entry!.hash });
    expect((await verify()).fault).toBeUndefined();
  });

  it('stores the hash verification recomputes, whatever the text of the entry', async () => {
    const drafts = [
      draft('quote " backslash \\ and a\nnewline, a tab\t', { tokenId: 'tok-1', address: '::1', sessionId: 's-1', targets: { scenario: 'x"y' } }),
      draft('größe 名前 🙂', { targets: { session: 'ünïcode', dataset: '🙂' }, status: 409 }),
      draft('', { action: 'token.revoke', status: 204 }),
      // Every control character but NUL (which PostgreSQL's text cannot hold), DEL and the line separators: escaped (or not) as JSON.stringify does.
      draft(`${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('')}\u007f\u2028\u2029 end`, { address: '\b\f\r', targets: { scenario: '\u0001\u001f' } }),
    ];
    for (const entry of drafts) await store().audit.appendAlone(entry);
    const rows = (await store().audit.page({ limit: drafts.length })).reverse();
    expect(rows.map((row) => [row.who, row.token_id, row.address, row.session_id, row.targets, row.status])).toEqual(
      drafts.map((entry) => [entry.who, entry.tokenId, entry.address, entry.sessionId, JSON.stringify(entry.targets), entry.status]),
    );
    for (const row of rows) expect(row.hash).toBe(auditHash(row.prev_hash, contentOf(row)));
    expect((await verify()).fault).toBeUndefined();
  });
});
